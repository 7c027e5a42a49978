/**
 * Politeness across workers with a page assignment (issue 25, item 3), end to end: the built
 * `crawlbench crawl --parts 3 --model page --assign hash` against a real nats-server (the
 * embedded one) and the test web. A site's pages lie on all three workers; the test web's own
 * log (the server's side of every connection) shows one connection to a site at a time across
 * the workers and w between them; the merged crawl counts the lease traffic apart.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import Sqlite from '../../core/store/sqlite.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { crawlbench } from '../helpers/run.js';
import { politenessViolations } from '../helpers/politeness.js';
import { fetchedUrls } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { describeWith } from '../references.js';

const dir = tmpDir('crawlbench-parallel-polite-');


describeWith(['nats-server'], 'parallel crawl with a page assignment: politeness across workers', async () => {
  const web = generateWeb({ seed: 31, sites: 6, pages: 150, latency: { maxMs: 5 } });
  const { server, port } = await serve(web);
  const seeds = join(dir, 'seeds.txt');
  writeFileSync(seeds, seedUrls(web, port).join('\n') + '\n');
  const W = 150;
  const C = 3;

  it('one connection to a site at a time across the workers, w apart; the lease traffic counted', async () => {
    const db = join(dir, 'page.db');
    const flags = ['--seeds', seeds, '--resolve', '*.demo=127.0.0.1', '--w', `${W}ms`, '--c', String(C), '--r', '8', '--retry-base', '200ms', '--quiet'];
    const r = await crawlbench(['crawl', '--db', db, ...flags, '--parts', '3', '--model', 'page', '--assign', 'hash', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { merge: { pagesFetched: number; workers: { part: number; pagesFetched: number }[] } };
    expect(s.merge.pagesFetched).toBeGreaterThan(100);
    for (const w of s.merge.workers) expect(w.pagesFetched).toBeGreaterThan(0);
    expect(politenessViolations(server.requests, server.connections, { w: W, c: C })).toEqual([]);
    // Every site's pages were fetched by more than one worker: the leases had something to keep apart.
    const workersOf = new Map<string, Set<number>>();
    for (let part = 0; part < 3; part++) {
      for (const url of fetchedUrls(join(dir, 'page.parts', `part-${part}.db`))) {
        const host = new URL(url).hostname;
        workersOf.set(host, (workersOf.get(host) ?? new Set()).add(part));
      }
    }
    expect(workersOf.size).toBe(6);
    expect([...workersOf.values()].filter((parts) => parts.size > 1).length).toBeGreaterThanOrEqual(4);
    const d = new Sqlite(db, { readonly: true });
    try {
      const counter = (name: string) => (d.prepare('SELECT value FROM counters WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
      // At least a read and a write to take a site per connection (the last frees may land after the last commit).
      expect(counter('leases:requests')).toBeGreaterThanOrEqual(2 * server.connections.size);
      expect(counter('leases:bytes')).toBeGreaterThan(counter('leases:requests') * 10);
    } finally {
      d.close();
    }
  }, 120_000);
});
