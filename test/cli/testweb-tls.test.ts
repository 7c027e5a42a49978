/**
 * The CLI over TLS, end to end (issue 26): `crawlbench testweb --tls` writes its CA beside the
 * seeds and says where; `crawlbench crawl --ca` of that file crawls its https sites under
 * --tls verify; without it, verify refuses every https site with CRAWL_TLS_UNTRUSTED and the
 * default (record) crawls them all the same.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();
const seeds = join(dir, 'seeds.txt');
const child = spawn(process.execPath, [BIN, 'testweb', '--sites', '4', '--pages', '40', '--latency', 'off', '--tls', '1', '--tls-both', '0', '--seeds-out', seeds], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let ready: { port: number; resolve: string; ca: string | null };

beforeAll(async () => {
  ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)));
});
afterAll(async () => {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('close', r));
});

const crawl = (name: string, extra: string[]) =>
  crawlbench(['crawl', '--db', join(dir, `${name}.db`), '--seeds', seeds, '--scope', '.demo', '--resolve', ready.resolve, '--w', '0', '--c', '10', '--max-attempts', '1', '--json', '--quiet', ...extra]);

describe('testweb --tls and crawl --ca', () => {
  it('writes the CA beside the seeds, with its key, and says where', () => {
    expect(ready.ca).toBe(join(dir, 'ca.pem'));
    expect(readFileSync(ready.ca!, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(existsSync(join(dir, 'ca-key.pem'))).toBe(true);
    expect(readFileSync(seeds, 'utf8').trim().split('\n').every((u) => u.startsWith('https://'))).toBe(true);
  });

  it('crawl --tls verify --ca ca.pem fetches every page over https; without --ca every site is refused as untrusted', async () => {
    const trusted = await crawl('trusted', ['--tls', 'verify', '--ca', ready.ca!]);
    expect(trusted.code, trusted.stderr).toBe(0);
    const ok = JSON.parse(trusted.stdout.trim().split('\n').at(-1)!) as { pagesFetched: number; errors: Record<string, number> };
    expect(ok.pagesFetched).toBeGreaterThanOrEqual(30); // about 40 pages, some kept out by robots.txt
    expect(Object.keys(ok.errors).filter((c) => c.startsWith('CRAWL_TLS'))).toEqual([]);
    const refused = await crawl('refused', ['--tls', 'verify']);
    const bad = JSON.parse(refused.stdout.trim().split('\n').at(-1)!) as { pagesFetched: number; errors: Record<string, number> };
    expect(bad.pagesFetched).toBe(0);
    expect(bad.errors.CRAWL_TLS_UNTRUSTED).toBe(4);
    const recorded = await crawl('recorded', []);
    const rec = JSON.parse(recorded.stdout.trim().split('\n').at(-1)!) as { pagesFetched: number };
    expect(rec.pagesFetched).toBe(ok.pagesFetched);
  });
});
