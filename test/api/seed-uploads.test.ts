/**
 * Seed files too large for one message go up in chunks (issue 23): 10 MB of seeds read and
 * made into a crawl over the WebSocket transport, every seed queued, no message near the
 * limit; and the limits of an upload (limits.ts): a chunk, a whole upload, uploads held, idle.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../core/api/browser-server.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { API_LIMITS } from '../../core/api/limits.js';
import { SeedUploads } from '../../core/api/seed-uploads.js';
import { OneAtATime } from '../../core/api/worker-jobs.js';
import { connectWebSocket } from '../../core/api/ws-client.js';
import type { CrawlError } from '../../core/errors.js';
import { tmpDir } from '../helpers/tmp.js';

const WS = WebSocket as unknown as Parameters<typeof connectWebSocket>[1];

/** 230,000 distinct seed URLs, 10 MB (the size of the file that took the server down). */
export function tenMegabytesOfSeeds(port = 9): { text: string; count: number } {
  const count = 230_000;
  let text = '';
  for (let i = 0; i < count; i++) text += `http://127.0.0.1:${port}/seeds/${String(i).padStart(22, '0')}\n`;
  return { text, count };
}

describe('10 MB of seeds over the WebSocket transport', () => {
  const dir = tmpDir('cb-uploads-');
  mkdirSync(join(dir, 'static'));
  const engine = new EngineApi(join(dir, 'ws'));
  const started = startBrowserServer({ api: engine, staticDir: join(dir, 'static') });
  afterAll(async () => {
    await engine.close();
    await (await started).close();
  });

  it('goes up in chunks under the limit of one message, is read, and makes a crawl with every seed queued', async () => {
    const server = await started;
    const conn = await connectWebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, WS);
    const { text, count } = tenMegabytesOfSeeds();
    expect(text.length).toBeGreaterThan(10_000_000);
    // In one piece: refused by the client before it is sent, in words, and the socket stays open.
    await expect(conn.api.parseSeeds(text)).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', message: expect.stringMatching(/^this request is 10\.\d MiB: one message to the engine can be at most 4 MiB$/) });
    // Under the message limit but over the seed text limit: the engine says to upload it.
    await expect(conn.api.parseSeeds(text.slice(0, 1_000_000))).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'text', message: expect.stringMatching(/at most 524,288 characters .*uploadSeeds/) });
    const size = API_LIMITS.seedChunkChars;
    let parts = 0;
    for (let at = 0; at < text.length; at += size) await conn.api.uploadSeeds('ten-mb', text.slice(at, at + size), parts++);
    expect(parts).toBe(Math.ceil(text.length / size));
    const read = await conn.api.parseSeeds({ uploadId: 'ten-mb' });
    expect(read.urls).toHaveLength(count);
    expect(read.problems).toEqual([]);
    const created = await conn.api.createCrawl({ name: 'ten-mb', seedUploadId: 'ten-mb', w: 1000, maxPagesPerSite: 1_000_000 });
    expect(created).toMatchObject({ id: 'ten-mb', status: 'created', pagesKnown: count, queued: count });
    conn.close();
  }, 120_000);
});

describe('the limits of a seed upload', () => {
  it('refuses a chunk over its limit, a part out of order, an id that is not a word, and text that is not text', () => {
    const u = new SeedUploads();
    expect(() => u.append('a', 'x'.repeat(API_LIMITS.seedChunkChars + 1), 0)).toThrow(expect.objectContaining({ code: 'CRAWL_BAD_OPTION', field: 'chunk', message: expect.stringMatching(/at most 524,288 characters \(this one has 524,289\)/) }));
    expect(u.append('a', 'x'.repeat(API_LIMITS.seedChunkChars), 0)).toEqual({ uploadId: 'a', parts: 1, chars: API_LIMITS.seedChunkChars });
    expect(() => u.append('a', 'y', 2)).toThrow(expect.objectContaining({ field: 'part', message: 'part: upload "a" expects part 1 next, not 2' }));
    expect(() => u.append('a', 'y', -1)).toThrow(expect.objectContaining({ field: 'part' }));
    expect(() => u.append('a', 'y', 1.5)).toThrow(expect.objectContaining({ field: 'part' }));
    expect(() => u.append('a/b', 'y', 0)).toThrow(expect.objectContaining({ field: 'uploadId' }));
    expect(() => u.append('x'.repeat(65), 'y', 0)).toThrow(expect.objectContaining({ field: 'uploadId' }));
    expect(() => u.append('a', 42, 1)).toThrow(expect.objectContaining({ field: 'chunk', message: 'chunk: must be text' }));
    expect(u.text('a')).toHaveLength(API_LIMITS.seedChunkChars);
  });

  it('drops an upload that grows past the limit of a seed file', () => {
    const u = new SeedUploads();
    // One string object pushed again and again: the limit is counted, not allocated.
    const chunk = 'x'.repeat(API_LIMITS.seedChunkChars);
    const fit = API_LIMITS.seedUploadChars / API_LIMITS.seedChunkChars;
    for (let part = 0; part < fit; part++) u.append('big', chunk, part);
    expect(u.total()).toBe(API_LIMITS.seedUploadChars);
    // Named as the seeds' field, in the words the form and the CLI use for a seed file over the limit.
    expect(() => u.append('big', 'x', fit)).toThrow(
      expect.objectContaining({ field: 'seedText', message: 'seedText: a seed file can be at most 64 MiB; split it, or keep the hosts or domain suffixes (.cl) of its URLs' }),
    );
    expect(() => u.text('big')).toThrow(expect.objectContaining({ field: 'uploadId' }));
    expect(u.total()).toBe(0);
  });

  it('holds a few uploads within the limit in all, dropping the oldest first, and forgets one left unused', () => {
    let now = 0;
    const u = new SeedUploads(() => now);
    for (const id of ['u1', 'u2', 'u3', 'u4', 'u5']) u.append(id, id, 0);
    expect(() => u.text('u1')).toThrow(expect.objectContaining({ field: 'uploadId' }));
    expect(['u2', 'u3', 'u4', 'u5'].map((id) => u.text(id))).toEqual(['u2', 'u3', 'u4', 'u5']);
    // Room for a large one: older ones go.
    const half = 'x'.repeat(API_LIMITS.seedChunkChars);
    for (let part = 0; part < API_LIMITS.seedUploadChars / API_LIMITS.seedChunkChars - 1; part++) u.append('large', half, part);
    expect(u.total()).toBeLessThanOrEqual(API_LIMITS.seedUploadChars);
    expect(u.text('large')).toHaveLength(API_LIMITS.seedUploadChars - API_LIMITS.seedChunkChars);
    now += API_LIMITS.seedUploadIdleMs + 1;
    expect(() => u.text('large')).toThrow(expect.objectContaining({ field: 'uploadId', message: expect.stringMatching(/dropped after 30 minutes/) }));
  });
});

describe('a crawl made from a large seed upload', () => {
  const dir = tmpDir('cb-upload-create-');
  const engine = new EngineApi(dir);
  afterAll(() => engine.close());

  /** Uploads `text` in chunks as the workbench does. */
  async function upload(id: string, text: string): Promise<void> {
    for (let at = 0, part = 0; at < text.length; at += API_LIMITS.seedChunkChars) await engine.uploadSeeds(id, text.slice(at, at + API_LIMITS.seedChunkChars), part++);
  }

  it('is read and written in a worker thread: the engine answers meanwhile, lists no half-written crawl, and refuses the same name twice', async () => {
    // Before: its seeds were read and its file written on the engine's thread (a 64 MiB upload held it 30 s and more): no call was answered meanwhile.
    const { text, count } = tenMegabytesOfSeeds();
    await upload('big', text);
    let done = false;
    const created = engine.createCrawl({ name: 'big', seedUploadId: 'big', w: 1000, maxPagesPerSite: 1_000_000 }).finally(() => (done = true));
    let answered = 0;
    /** The crawl listed before it was whole (its file named once written and closed). */
    let listedHalf = false;
    let second: unknown = null;
    while (!done) {
      await engine.health();
      listedHalf ||= (await engine.listCrawls()).some((c) => c.id === 'big' && (c.status !== 'created' || c.pagesKnown !== count));
      if (answered++ === 0) second = await engine.createCrawl({ name: 'big', seedText: 'http://127.0.0.1:9/' }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await created).toMatchObject({ id: 'big', status: 'created', pagesKnown: count });
    expect(answered).toBeGreaterThanOrEqual(5);
    expect(listedHalf).toBe(false);
    expect(second).toMatchObject({ code: 'CRAWL_SETTINGS_CONFLICT', field: 'name', message: 'a crawl named "big" is being created' });
    expect(readdirSync(dir).filter((f) => f.includes('creating'))).toEqual([]);
  }, 120_000);

  it('refuses a bad line at the seed field, its text cut short, and leaves no file behind', async () => {
    // Two entries on a line: the problem names the bad one (before: whole, 2 MB of it, twice over the wire).
    const long = `http://127.0.0.1:9/a\nwww.a.cl, not-a-seed-${'x'.repeat(2_000_000)}\n`;
    await upload('bad', long);
    const err = await engine.createCrawl({ name: 'bad', seedUploadId: 'bad', w: 1000 }).catch((e: CrawlError) => e);
    expect(err).toMatchObject({ code: 'CRAWL_BAD_SEED', field: 'seedText', message: expect.stringMatching(/^seeds: line 2: “www\.a\.cl, not-a-seed-x+…”: “not-a-seed-x+…”: not a valid host name$/) });
    expect((err as Error).message.length).toBeLessThan(1000);
    expect(readdirSync(dir).filter((f) => f.startsWith('bad') || f.includes('creating'))).toEqual([]);
    // parseSeeds of the upload (read in a worker thread too) cuts it likewise, in the problem's words as well.
    const read = await engine.parseSeeds({ uploadId: 'bad' });
    expect(read.urls).toEqual(['http://127.0.0.1:9/a']);
    expect(JSON.stringify(read.problems).length).toBeLessThan(1000);
  }, 120_000);
});

describe('a crawl half written when its server was killed', () => {
  it('leaves nothing listed, and what it left is cleared when an engine opens the workspace, unless a live process is writing it', async () => {
    const dir = tmpDir('cb-creating-');
    const host = (await import('node:os')).hostname();
    // A dead server's leftover, and one a live process (this one) holds.
    writeFileSync(join(dir, '.gone.creating.db'), 'half');
    writeFileSync(join(dir, '.gone.creating.db.lock'), `999999999@${host}`);
    writeFileSync(join(dir, '.held.creating.db'), 'half');
    writeFileSync(join(dir, '.held.creating.db.lock'), `${process.pid}@${host}`);
    // One another machine writes (a workspace on a shared disk): held too.
    writeFileSync(join(dir, '.remote.creating.db'), 'half');
    writeFileSync(join(dir, '.remote.creating.db.lock'), `4242@another-host`);
    const engine = new EngineApi(dir);
    try {
      expect(readdirSync(dir).filter((f) => f.includes('creating')).sort()).toEqual(['.held.creating.db', '.held.creating.db.lock', '.remote.creating.db', '.remote.creating.db.lock']);
      expect(await engine.listCrawls()).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

describe('seed readings asked for together', () => {
  it('run one at a time (each a thread with a copy of the text), every one answered, a failing one not stopping the next', async () => {
    const turns = new OneAtATime();
    let running = 0;
    let most = 0;
    const job = (fail: boolean) => async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      if (fail) throw new Error('bad seeds');
      return 'read';
    };
    const answers = await Promise.allSettled([false, true, false, false].map((fail) => turns.run(job(fail))));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(most).toBe(1);
    // Through the engine: four readings of one large upload at once, each whole.
    const dir = tmpDir('cb-turns-');
    const engine = new EngineApi(dir);
    try {
      const { text, count } = tenMegabytesOfSeeds();
      const part = text.slice(0, 2_000_000);
      for (let at = 0, n = 0; at < part.length; at += API_LIMITS.seedChunkChars) await engine.uploadSeeds('turns', part.slice(at, at + API_LIMITS.seedChunkChars), n++);
      const reads = await Promise.all([0, 1, 2, 3].map(() => engine.parseSeeds({ uploadId: 'turns' })));
      for (const r of reads) expect(r.urls.length).toBe(part.split('\n').filter((l) => l.trim()).length);
      expect(count).toBeGreaterThan(reads[0]!.urls.length);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
