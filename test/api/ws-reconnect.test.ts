/**
 * The window's side of a closed socket (issue 23): a call too large for one message is refused
 * by the client before it is sent; when the server closes the socket with 1009 all the same (a
 * client without that check), the call fails with the limit in words, the window's API object
 * opens a new socket and carries on, and another tab's connection never notices.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../core/api/browser-server.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { connectReconnecting, connectWebSocket, type ConnectionStatus } from '../../core/api/ws-client.js';
import { tmpDir } from '../helpers/tmp.js';

const WS = WebSocket as unknown as Parameters<typeof connectWebSocket>[1];
const FIVE_MB = 'http://127.0.0.1:9/x\n'.repeat(230_000);

describe('a socket closed with 1009', () => {
  const dir = tmpDir('cb-reconnect-');
  mkdirSync(join(dir, 'static'));
  const engine = new EngineApi(join(dir, 'ws'));
  const started = startBrowserServer({ api: engine, staticDir: join(dir, 'static'), log: () => undefined });
  afterAll(async () => {
    await engine.close();
    await (await started).close();
  });

  it('is said in words naming the limit, and the same API object carries on over a new socket; another tab carries on', async () => {
    const server = await started;
    const url = `ws://127.0.0.1:${server.port}/api?token=${server.token}`;
    const statuses: ConnectionStatus[] = [];
    // This window sends whatever it is given (no check before sending), as an older client would.
    const win = await connectReconnecting(url, { Ctor: WS, maxMessageBytes: Infinity, retryMs: 50, onStatus: (s) => statuses.push(s) });
    const otherTab = await connectWebSocket(url, WS);
    let otherClosed = false;
    void otherTab.closed.then(() => (otherClosed = true));
    expect(statuses).toEqual([{ state: 'open' }]);

    const refused = await win.api.parseSeeds(FIVE_MB).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'CRAWL_DISCONNECTED',
      message: expect.stringMatching(/^the engine closed the connection because a request was too large: a message of 4\.\d MiB is over the 4 MiB limit of one API message$/),
    });
    // The next call waits for the new socket and is answered.
    expect((await win.api.health()).ok).toBe(true);
    expect(statuses.map((s) => s.state)).toEqual(['open', 'reconnecting', 'open']);
    const after = statuses[2] as Extract<ConnectionStatus, { state: 'open' }>;
    expect(after.after).toMatchObject({ code: 1009, words: expect.stringMatching(/4 MiB limit/) });
    expect(await otherTab.api.listCrawls()).toEqual([]);
    expect(otherClosed).toBe(false);
    otherTab.close();
    win.close();
  });

  it('with the check before sending (the workbench): refused in words before it is sent, and the socket stays open', async () => {
    const server = await started;
    const statuses: ConnectionStatus[] = [];
    const win = await connectReconnecting(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, { Ctor: WS, onStatus: (s) => statuses.push(s) });
    await expect(win.api.parseSeeds(FIVE_MB)).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', message: expect.stringMatching(/^this request is 4\.\d MiB: one message to the engine can be at most 4 MiB$/) });
    expect((await win.api.health()).ok).toBe(true);
    expect(statuses).toEqual([{ state: 'open' }]);
    win.close();
  });
});
