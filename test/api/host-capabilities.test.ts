/**
 * Where an export goes is the host's to say (HostCapabilities.chooseExportTarget), never the
 * page's: browser mode's host answers with the workspace's exports folder; the desktop's asks
 * a save dialog in its main process. The second is driven here through the same supervisor and
 * engine host the desktop uses, with a forked Node child in place of Electron's utility process
 * and a host whose "dialog" answers as a user would. And electron/ stays a pipe: no API method
 * is named there.
 */
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_METHODS, type ExportJobDto, type ExportRequest, type ExportTarget, type ExportTargetRequest } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { superviseEngine } from '../../core/api/engine-supervisor.js';
import { workspaceHost } from '../../core/api/host.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';

const CHILD = fileURLToPath(new URL('./fixtures/engine-child.mjs', import.meta.url));
const dir = tmpDir('crawlbench-host-');

async function finished(api: { listExports(id?: string): Promise<ExportJobDto[]> }, exportId: string): Promise<ExportJobDto> {
  for (let i = 0; i < 600; i++) {
    const job = (await api.listExports()).find((j) => j.exportId === exportId);
    if (job && job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the export did not end');
}

describe('the host says where an export goes', async () => {
  const web = handWeb([{ host: 'a.test', pages: [{ path: '/', links: ['/x'] }, { path: '/x' }] }]);
  const { port } = await serve(web);
  const crawlRequest = (name: string) => ({ name, seedText: `http://a.test:${port}/`, resolve: [{ pattern: '*', address: '127.0.0.1' }], w: 0, r: 2 });

  async function crawled(api: EngineApi | ReturnType<typeof superviseEngine>['api'], name: string): Promise<void> {
    await api.createCrawl(crawlRequest(name));
    await api.start(name);
    for (let i = 0; i < 400; i++) {
      if ((await api.listCrawls()).find((c) => c.id === name)?.status === 'finished') return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the crawl did not finish');
  }

  it("browser mode's host: the workspace's exports folder, the request's own path refused", async () => {
    expect(await workspaceHost.chooseExportTarget({ crawlId: 'c', format: 'csv', what: 'pages', folder: false, suggestedName: 'c-pages.csv', defaultOut: '/w/exports/x/c-pages.csv' })).toEqual({
      out: '/w/exports/x/c-pages.csv',
      replace: false,
    });
    const api = new EngineApi(join(dir, 'browser'));
    try {
      await crawled(api, 'b');
      const { exportId } = await api.startExport('b', { format: 'csv' });
      const job = await finished(api, exportId);
      expect(job.state).toBe('finished');
      expect(job.files.map((f) => f.path)).toEqual([join(api.exportsDir, exportId, 'b-pages.csv')]);
      await expect(api.startExport('b', { format: 'csv', out: join(dir, 'elsewhere.csv') } as ExportRequest)).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'out' });
    } finally {
      await api.close();
    }
  });

  it("the desktop's host, asked from the engine's own process: the chosen file is written; a closed dialog cancels", async () => {
    const asked: ExportTargetRequest[] = [];
    let answer: ExportTarget | null = null;
    const engine = superviseEngine(
      () => {
        const child = fork(CHILD, [join(dir, 'desktop')], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        return { send: (m) => child.connected && child.send(m), onMessage: (cb) => child.on('message', cb), onExit: (cb) => child.once('exit', cb), kill: () => void child.kill('SIGTERM') };
      },
      {
        host: {
          async chooseExportTarget(req) {
            asked.push(req);
            return answer;
          },
        },
      },
    );
    try {
      await crawled(engine.api, 'd');
      const chosen = join(dir, 'chosen by the user.csv');
      answer = { out: chosen, replace: true };
      const { exportId } = await engine.api.startExport('d', { format: 'csv' });
      expect((await finished(engine.api, exportId)).state).toBe('finished');
      expect(readFileSync(chosen, 'utf8').split('\n')[0]).toMatch(/^url,/);
      expect(asked[0]).toMatchObject({ crawlId: 'd', format: 'csv', what: 'pages', folder: false, suggestedName: 'd-pages.csv' });
      answer = null;
      await expect(engine.api.startExport('d', { format: 'jsonl', what: 'links' })).rejects.toMatchObject({ code: 'CRAWL_CANCELLED' });
      expect(asked[1]).toMatchObject({ format: 'jsonl', what: 'links', suggestedName: 'd-links.jsonl' });
      // A bad request is refused before any dialog opens.
      await expect(engine.api.startExport('d', { format: 'zip' as 'csv' })).rejects.toMatchObject({ field: 'format' });
      expect(asked).toHaveLength(2);
    } finally {
      engine.close();
    }
  });
});

describe('electron/ is a pipe', () => {
  it('names no API method and keeps no export table', () => {
    const root = fileURLToPath(new URL('../../electron/', import.meta.url));
    const files = readdirSync(root).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(2);
    const found: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const name of API_METHODS) if (new RegExp(`['"\`.]${name}\\b`).test(text)) found.push(`${f}: ${name}`);
      if (/\b(jsonl|parquet)\b/.test(text)) found.push(`${f}: an export format`);
    }
    expect(found).toEqual([]);
    expect(existsSync(join(root, 'main.ts'))).toBe(true);
  });
});
