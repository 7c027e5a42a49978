/**
 * One page across schemes (issue 26, docs/design.md section 4.10): the same web crawled over
 * http and then over https, on the same port, and compared: every page is paired, and the
 * report says they were paired across schemes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir('crawlbench-schemes-');

async function web(name: string, tls: string, port: number): Promise<{ child: ChildProcess; port: number; resolve: string; ca: string | null }> {
  const child = spawn(
    process.execPath,
    [BIN, 'testweb', '--sites', '5', '--pages', '60', '--latency', 'off', '--tls', tls, '--tls-both', '0', '--port', String(port), '--seeds-out', join(dir, `${name}-seeds.txt`)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))) as { port: number; resolve: string; ca: string | null };
  return { child, ...ready };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('close', r));
}

describe('compare across schemes', () => {
  it('pairs every page of a crawl over http with the same web crawled over https', async () => {
    const plain = await web('http', '0', 0);
    const crawl = (name: string, extra: string[], resolve: string) =>
      crawlbench(['crawl', '--db', join(dir, `${name}.db`), '--seeds', join(dir, `${name}-seeds.txt`), '--scope', '.demo', '--resolve', resolve, '--w', '0', '--c', '10', '--json', '--quiet', ...extra]);
    const a = await crawl('http', [], plain.resolve);
    await stop(plain.child);
    expect(a.code, a.stderr).toBe(0);
    const secure = await web('https', '1', plain.port);
    const b = await crawl('https', ['--tls', 'verify', '--ca', secure.ca!], secure.resolve);
    await stop(secure.child);
    expect(b.code, b.stderr).toBe(0);
    const fetched = (JSON.parse(a.stdout.trim().split('\n').at(-1)!) as { pagesFetched: number }).pagesFetched;
    expect(fetched).toBeGreaterThan(30);
    const r = await crawlbench(['compare', join(dir, 'http.db'), join(dir, 'https.db'), '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { pages: { inA: number; inB: number; onlyA: number; onlyB: number; both: number }; common: { acrossSchemes: number }; notes: string[] };
    expect(report.pages.onlyA).toBe(0);
    expect(report.pages.onlyB).toBe(0);
    expect(report.pages.both).toBe(report.pages.inA);
    expect(report.pages.inA).toBeGreaterThan(30);
    expect(report.common.acrossSchemes).toBe(report.pages.both);
    expect(report.notes.join('\n')).toMatch(/matched whatever their scheme/);
  }, 60_000);
});
