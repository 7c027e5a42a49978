/**
 * Browser-mode transport, client half: the contract over one WebSocket. Written against the
 * standard WebSocket interface, so the browser's own and the `ws` package's both work.
 *
 * A call too large for one message (limits.ts) is refused here, before it is sent, in words
 * that name its size and the limit. When the server closes the socket all the same (1009 for a
 * message over the limit, or a lost connection), the calls under way fail with the reason in
 * words; connectReconnecting then opens a new socket behind the same API object, so the window
 * carries on (and so do other tabs: each has its own socket).
 */
import type { CrawlbenchApi } from './contract.js';
import { API_LIMITS, sizeInWords } from './limits.js';
import { createApiClient, messageLink, type ClientLink } from './rpc-client.js';
import { isRpcMessage, type RpcMessage } from './rpc.js';

interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'error', cb: () => void): void;
  addEventListener(type: 'close', cb: (e: { code?: number; reason?: string }) => void): void;
  addEventListener(type: 'message', cb: (e: { data: unknown }) => void): void;
}
type WebSocketCtor = new (url: string) => WebSocketLike;

/** How a socket closed: its code and reason, and both in words for the user. */
export interface WsClose {
  code: number;
  reason: string;
  words: string;
}

export interface WsConnection {
  api: CrawlbenchApi;
  close(): void;
  /** Resolves when the socket closes (server gone, token refused, a message over the limit). */
  closed: Promise<WsClose>;
}

export interface WsOptions {
  /** Refuse a call whose message is larger than this, before sending it (default API_LIMITS.messageBytes). */
  maxMessageBytes?: number;
}

/** Why the connection closed, in words (1009 names the limit of one message). */
export function closeInWords(code: number, reason = ''): string {
  const why = reason ? `: ${reason}` : '';
  switch (code) {
    case 1009:
      return `the engine closed the connection because a request was too large${reason ? `: ${reason}` : ` (over the ${sizeInWords(API_LIMITS.messageBytes)} limit of one API message)`}`;
    case 1003:
    case 1007:
      return `the engine closed the connection because it received something that is not an API call${why}`;
    case 1001:
      return 'the engine is shutting down';
    case 1000:
    case 1005:
      return 'the connection to the engine was closed';
    case 1006:
      return 'the connection to the engine was lost (is crawlbench serve still running?)';
    default:
      return `the connection to the engine closed (code ${code}${why})`;
  }
}

/** UTF-8 bytes of `text`, counted without encoding it. */
function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) (n += 4), i++;
    else n += 3;
  }
  return n;
}

const disconnected = (words: string) => Object.assign(new Error(words), { name: 'CrawlError', code: 'CRAWL_DISCONNECTED' });

/** Opens one socket; its calls go out as text messages, refused here when over the limit. */
function openSocket(url: string, WS: WebSocketCtor, opts: WsOptions): { socket: WebSocketLike; link: ReturnType<typeof messageLink>; opened: Promise<void>; closed: Promise<WsClose> } {
  const max = opts.maxMessageBytes ?? API_LIMITS.messageBytes;
  const socket = new WS(url);
  const link = messageLink((msg) => {
    const text = JSON.stringify(msg);
    // Three bytes a character at most: only text that might be over the limit is counted.
    const bytes = text.length * 3 > max ? utf8Bytes(text) : 0;
    if (bytes > max) {
      throw Object.assign(new Error(`this request is ${sizeInWords(bytes)}: one message to the engine can be at most ${sizeInWords(max)}`), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION' });
    }
    socket.send(text);
  });
  socket.addEventListener('message', (e) => {
    let msg: unknown;
    try {
      msg = JSON.parse(String(e.data));
    } catch {
      return; // not ours
    }
    if (isRpcMessage(msg)) link.receive(msg);
  });
  const closed = new Promise<WsClose>((resolve) =>
    socket.addEventListener('close', (e) => {
      const code = e?.code ?? 1005;
      const reason = e?.reason ?? '';
      const words = closeInWords(code, reason);
      link.fail(disconnected(words));
      resolve({ code, reason, words });
    }),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url.replace(/token=[^&]+/, 'token=…')}`)));
  });
  opened.catch(() => undefined);
  return { socket, link, opened, closed };
}

export async function connectWebSocket(url: string, Ctor?: WebSocketCtor, opts: WsOptions = {}): Promise<WsConnection> {
  const WS = Ctor ?? (globalThis as unknown as { WebSocket: WebSocketCtor }).WebSocket;
  const { socket, link, opened, closed } = openSocket(url, WS, opts);
  await opened;
  return { api: createApiClient(link), close: () => socket.close(), closed };
}

/** Where a reconnecting connection stands, for the window to say. */
export type ConnectionStatus =
  | { state: 'open'; /** Why the one before closed (absent for the first connection). */ after?: WsClose }
  | { state: 'reconnecting'; closed: WsClose; attempt: number };

export interface ReconnectingOptions extends WsOptions {
  Ctor?: WebSocketCtor;
  /** Told each time the socket closes and each time a new one opens. */
  onStatus?(s: ConnectionStatus): void;
  /** First wait before opening a new socket (doubled up to maxRetryMs). */
  retryMs?: number;
  maxRetryMs?: number;
  /** How long a call made while the socket reopens waits for it before failing (default 15 s). */
  callWaitMs?: number;
}

/**
 * One API object over a socket that is opened again whenever it closes (1009, the server
 * restarted, a lost connection). Calls under way when it closes fail with the reason in words;
 * calls made while it reopens wait for the new socket. Rejects if the first socket cannot open.
 */
export async function connectReconnecting(url: string, opts: ReconnectingOptions = {}): Promise<{ api: CrawlbenchApi; close(): void }> {
  const WS = opts.Ctor ?? (globalThis as unknown as { WebSocket: WebSocketCtor }).WebSocket;
  let onEvent: (msg: RpcMessage) => void = () => undefined;
  let stopped = false;
  let current = openSocket(url, WS, opts);
  await current.opened;
  opts.onStatus?.({ state: 'open' });
  /** Resolves with the open socket's link (at once while one is open). */
  let ready: Promise<ReturnType<typeof messageLink>> = Promise.resolve(current.link);

  const follow = (conn: typeof current) => {
    conn.link.onEvent((msg) => onEvent(msg));
    void conn.closed.then((why) => {
      if (stopped || conn !== current) return;
      ready = reopen(why);
      ready.catch(() => undefined);
    });
  };
  const reopen = async (why: WsClose): Promise<ReturnType<typeof messageLink>> => {
    let wait = opts.retryMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      opts.onStatus?.({ state: 'reconnecting', closed: why, attempt });
      await new Promise((r) => setTimeout(r, wait));
      if (stopped) throw disconnected('the connection to the engine was closed');
      const next = openSocket(url, WS, opts);
      try {
        await next.opened;
      } catch {
        wait = Math.min(wait * 2, opts.maxRetryMs ?? 5000);
        continue;
      }
      current = next;
      follow(next);
      opts.onStatus?.({ state: 'open', after: why });
      return next.link;
    }
  };
  follow(current);

  const link: ClientLink = {
    call: async (msg) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(disconnected('the connection to the engine is lost; the workbench is trying to open it again')), opts.callWaitMs ?? 15_000);
      });
      try {
        return (await Promise.race([ready, waited])).call(msg);
      } finally {
        clearTimeout(timer);
      }
    },
    onEvent: (cb) => {
      onEvent = cb;
    },
  };
  return {
    api: createApiClient(link),
    close() {
      stopped = true;
      current.socket.close();
    },
  };
}
