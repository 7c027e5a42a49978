/**
 * The channel between the server and a crawl's process (core/api/crawl-channel.ts) is a local
 * socket any local process can connect to. Over real sockets: lines split across chunks arrive
 * whole; a line without end closes that connection instead of being kept and searched again at
 * each chunk; a client that does not read has its messages dropped past the backlog instead of
 * queued in the crawl's process.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNEL_LIMITS, readLines, sendLine, socketPath } from '../../core/api/crawl-channel.js';
import { openRunnerChannel } from '../../core/api/runner-channel.js';

let server: Server | null = null;
afterEach(() => server?.close());

/** A connected pair: the channel's side (`near`) and a local process's (`far`). */
async function pair(): Promise<{ near: Socket; far: Socket }> {
  const near = new Promise<Socket>((resolve) => {
    server = createServer(resolve);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const far = connect((server!.address() as { port: number }).port, '127.0.0.1');
  await new Promise((resolve) => far.once('connect', resolve));
  const n = await near;
  // The other side going away mid-write is this test's doing, not its subject.
  for (const s of [n, far]) s.on('error', () => {});
  return { near: n, far };
}

it('reads lines split across chunks, and drops what is not JSON', async () => {
  const { near, far } = await pair();
  const got: unknown[] = [];
  readLines(near, (m) => got.push(m));
  far.write('{"t":"pa');
  await new Promise((r) => setTimeout(r, 20));
  far.write('use"}\nnot json\n{"t":"stop"}\n{"t":');
  await new Promise((r) => setTimeout(r, 20));
  far.write('"x"}\n');
  await expect.poll(() => got.length).toBe(3);
  expect(got).toEqual([{ t: 'pause' }, { t: 'stop' }, { t: 'x' }]);
  far.destroy();
});

it('a line longer than the limit ends that connection, however it is sent', async () => {
  // Before: kept whole, and searched again for its end at every chunk (48 MiB cut a crawl to a tenth of its pages/s).
  const { near, far } = await pair();
  readLines(near, () => {});
  const closed = new Promise((resolve) => far.once('close', resolve));
  const chunk = Buffer.alloc(1 << 20, 0x61);
  for (let i = 0; i * chunk.length <= CHANNEL_LIMITS.lineBytes + chunk.length && !far.destroyed; i++) far.write(chunk);
  await closed;
  expect(near.destroyed).toBe(true);
});

it('a client that does not read has its messages dropped past the backlog, not queued without end', async () => {
  // Before: each stats sample was written whatever the client had left unread (41 MB a day in the crawl's process).
  const { near, far } = await pair();
  far.pause();
  const pad = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 400; i++) sendLine(near, { t: 'stats', data: { pad } } as never); // 25 MiB offered
  expect(near.writableLength).toBeLessThanOrEqual(CHANNEL_LIMITS.backlogBytes + 70 * 1024);
  far.destroy();
});

it("a crawl's end is not held by a client that reads nothing: its channel closes all the same", async () => {
  // Before: close() waited for every client to take what was queued for it, for ever with one
  // that reads nothing, and the crawl's process never ended.
  const dir = mkdtempSync(join(tmpdir(), 'cb-channel-'));
  const channel = await openRunnerChannel(join(dir, 'c.db'), () => {});
  const far = connect(socketPath(join(dir, 'c.db')));
  far.on('error', () => {});
  await new Promise((resolve) => far.once('connect', resolve));
  far.pause();
  const pad = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 400; i++) channel.send({ t: 'stats', data: { pad } } as never);
  // And one more that reads nothing, with a queue the kernel's buffers take whole (a review found
  // close() flushed to it, then waited for it to close, which it never did).
  const idle = connect(socketPath(join(dir, 'c.db')));
  idle.on('error', () => {});
  await new Promise((resolve) => idle.once('connect', resolve));
  idle.pause();
  const closed = await Promise.race([channel.close({ t: 'ended' } as never).then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open after 30 s'), 30_000))]);
  expect(closed).toBe('closed');
  far.destroy();
  idle.destroy();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);
