/**
 * No absolute path in a message a user of the workbench sees (issue 23: "No crawl named "nope"
 * in" and the workspace's full path): a refused call, an unreadable crawl's problem, a failed
 * export or simulation name crawls and files as the workspace knows them, never where the
 * workspace or the engine's files are on the machine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SimulationRequest } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { withoutPaths } from '../../core/api/message-paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'cb-paths-'));
const workspace = join(tmp, 'workspace');
const datasets = join(tmp, 'elsewhere', 'datasets');
mkdirSync(join(datasets, 'half'), { recursive: true });
writeFileSync(join(datasets, 'half', 'pages.tsv.gz'), '');
let api: EngineApi;
afterAll(async () => {
  await api?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The message of a refused call. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: Error) => e.message,
  );

/** Any absolute path: the temporary folder's, or one of the machine's. */
const ABSOLUTE = /(^|[\s"'“(])\/(?!\/)[^\s"'”)]*\/|[A-Za-z]:\\/;

describe('messages a user sees name no absolute path', () => {
  it('rewrites the workspace away, a crawl file as its name, and any other path as its last part', () => {
    expect(withoutPaths(`no crawl named "nope" in ${workspace}`, workspace)).toBe('no crawl named "nope" in the workspace');
    expect(withoutPaths(`${join(workspace, 'a.db')}: locked by another process`, workspace)).toBe('a.db: locked by another process');
    expect(withoutPaths(`cannot write ${join(workspace, 'exports', 'x', 'pages.csv')}`, workspace)).toBe('cannot write exports/x/pages.csv');
    expect(withoutPaths('gpmetis failed: /usr/lib/metis/bin/gpmetis exited with 1', workspace)).toBe('gpmetis failed: gpmetis exited with 1');
    // URLs are not paths.
    expect(withoutPaths('seed http://www.uchile.cl/a/b is outside the scope', workspace)).toBe('seed http://www.uchile.cl/a/b is outside the scope');
  });

  it('in refused calls, unreadable crawls and failed simulations', async () => {
    api = new EngineApi(workspace, { datasetsDir: datasets });
    const said: string[] = [];
    said.push(await refusal(api.crawlSettings('nope')));
    said.push(await refusal(api.listSites('nope')));
    // A file that is no crawl: listed as unreadable, and refused when read.
    writeFileSync(join(workspace, 'junk.db'), 'not a database at all, '.repeat(200));
    const junk = (await api.listCrawls()).find((c) => c.id === 'junk');
    expect(junk?.status).toBe('unreadable');
    said.push(junk?.problem ?? '');
    said.push(await refusal(api.getPage('junk', 'http://a.test/')));
    // A crawl stopped for good, started again.
    await api.createCrawl({ name: 'done', seedText: 'http://127.0.0.1:9/', w: 0 });
    await api.stop('done');
    said.push(await refusal(api.start('done')));
    // A dataset folder outside the workspace without its links.
    const sim: SimulationRequest = { source: { kind: 'dataset', id: 'half' }, policies: ['breadth-first'] };
    said.push(await refusal(api.startSimulation(sim)));
    expect(said.every((m) => m.length > 0 && m !== 'accepted'), said.join('\n')).toBe(true);
    for (const m of said) {
      expect(m).not.toContain(tmp);
      expect(m, m).not.toMatch(ABSOLUTE);
    }
    expect(said[0]).toBe('no crawl named "nope" in the workspace');
  });
});
