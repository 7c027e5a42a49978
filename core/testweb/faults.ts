/**
 * Fault sites: servers that misbehave the way real ones do, each a single-page site in the graph
 * (its home page is linked from site 0's home page) whose other pages are served here.
 * robots.txt of every fault site is served normally (allow-all) except for the two robots faults,
 * so the crawler does reach the faulty pages. Times are scaled by the server's timeFactor.
 *
 * | host (+ suffix)  | behaviour                                                           | crawler should record            |
 * |------------------|---------------------------------------------------------------------|----------------------------------|
 * | stall-headers    | every page: request read, nothing ever sent                         | CRAWL_HEADERS_TIMEOUT            |
 * | stall-body       | 200 + Content-Length 100000, 2000 bytes of body, then silence       | CRAWL_BODY_TIMEOUT               |
 * | reset            | every page: TCP reset on arrival (socket.resetAndDestroy)           | CRAWL_CONNECTION_RESET           |
 * | redirect-loop    | / links /a; /a -302-> /b -302-> /a ...                              | CRAWL_TOO_MANY_REDIRECTS         |
 * | redirect-chain   | / links /r/0; /r/N -301-> /r/N+1 up to /r/50, which is a page       | CRAWL_TOO_MANY_REDIRECTS (limit < 50) |
 * | calendar         | /cal?y=2024&m=3 and /cal/2024/03/ link next/prev month, forever     | CRAWL_TRAP_DYNAMIC_DEPTH / TRAP_DEPTH / TRAP_SITE_CAP |
 * | session          | 20 pages /p?id=N (also /p/N); every link carries a fresh            | after stripping session ids: 41 URLs; |
 * |                  | PHPSESSID=<hex> or ;jsessionid=<hex>, new on every fetch            | otherwise CRAWL_TRAP_SITE_CAP    |
 * | huge             | / links /endless (chunked, never ends) and /big (50 MiB, with length) | CRAWL_BODY_TOO_LARGE           |
 * | gzip-bomb        | / links /bomb (gzip, 1 MB -> 1 GiB of zeros) and /bomb-br (br)      | CRAWL_DECODED_TOO_LARGE          |
 * | binary           | / links /report.pdf, /logo.png, /data.bin, /photo.html (a PNG)      | 200, stored, no links extracted  |
 * | broken-html      | / is broken markup (see fault-pages.ts); its 12 targets are pages   | 200; all BROKEN_HTML_LINKS found |
 * | latin1           | /cp1252.html (charset in header), /sjis-meta.html, /sjis-equiv.html | 200; titles as LATIN1_TITLES     |
 * |                  | (Shift_JIS declared only in <meta>)                                 |                                  |
 * | slow             | every page answers after 2 s; / links /slow/1, /slow/2              | 200 (unless timeout < 2 s)       |
 * | robots500        | robots.txt is always 500; /, /secret/1, /secret/2 must never be fetched | CRAWL_ROBOTS_UNAVAILABLE     |
 * | robots404        | robots.txt 404 (allow all); / links /open/1, /open/2                | 200                              |
 * | error5xx         | /flaky/0..2: 503 + Retry-After: 1 twice each, then 200;             | CRAWL_HTTP_5XX then success;     |
 * |                  | /always500: always 500                                              | CRAWL_HTTP_5XX                   |
 * | ratelimit        | /, /p/0../p/4: 429 + Retry-After: 1 on the first request, then 200  | CRAWL_HTTP_429 then success      |
 *
 * With sites on TLS, the TLS fault sites (https only; certificates in tls-certs.ts, handshakes
 * in tls-front.ts). Their pages, once a handshake succeeds: / links /p/1 and /p/2.
 *
 * | host (+ suffix)     | behaviour                                          | --tls verify (page)      | --tls record (site's certificate) |
 * |---------------------|----------------------------------------------------|--------------------------|-----------------------------------|
 * | tls-expired         | leaf expired 30 days ago                           | CRAWL_TLS_EXPIRED        | fetched; CRAWL_TLS_EXPIRED        |
 * | tls-self-signed     | leaf signed by its own key                         | CRAWL_TLS_UNTRUSTED      | fetched; CRAWL_TLS_UNTRUSTED      |
 * | tls-wrong-name      | leaf for www.another-host.invalid                  | CRAWL_TLS_WRONG_NAME     | fetched; CRAWL_TLS_WRONG_NAME     |
 * | tls-long-chain      | leaf under 110 intermediates (verify depth is 100) | CRAWL_TLS_UNTRUSTED      | fetched; CRAWL_TLS_UNTRUSTED      |
 * | tls-handshake-fail  | the handshake is refused (an alert)                | CRAWL_TLS_HANDSHAKE_FAILED, both modes                       |
 * | tls-handshake-stall | the ClientHello is never answered                  | CRAWL_TLS_HANDSHAKE_TIMEOUT, both modes                      |
 * | tls-huge-chain      | a chain of 160 KiB (a client takes 100 KiB)        | CRAWL_TLS_HANDSHAKE_FAILED, both modes                       |
 * | tls-record-flood    | / links /flood: one-byte TLS records, never ending | fetched /; /flood CRAWL_BODY_TOO_LARGE or a timeout        |
 */
import { randomBytes } from 'node:crypto';
import { brotliBomb, gzipBomb } from './bombs.js';
import { BROKEN_HTML, BROKEN_HTML_LINKS, LATIN1_TITLES, latin1Body, simplePage } from './fault-pages.js';
import { later, notFound, redirect, scaled, send, sendHtml, stream, type Ctx } from './respond.js';
import type { FaultKind } from './web.js';

export { FAULT_HOSTS, FAULT_KINDS, faultHost, TLS_FAULT_HOSTS, TLS_FAULT_KINDS } from './fault-kinds.js';
export { BROKEN_HTML_LINKS, BROKEN_HTML_NOT_LINKS, LATIN1_TITLES } from './fault-pages.js';

export const REDIRECT_CHAIN_LENGTH = 50;
export const BIG_BYTES = 50 * 1024 * 1024;
export const SLOW_MS = 2000;
export const SESSION_PAGES = 20;

/** Per-server memory of the stateful faults; keys are bounded by the fixed page sets. */
export class FaultState {
  private readonly hits = new Map<string, number>();
  /** Counts this request against its page and returns how many requests the page has had. */
  hit(ctx: Ctx): number {
    const key = `${ctx.host}${ctx.path}`;
    const n = (this.hits.get(key) ?? 0) + 1;
    this.hits.set(key, n);
    return n;
  }
}

type Handler = (ctx: Ctx, state: FaultState) => void;

/** Pages of a TLS fault site whose handshake succeeds. */
const tlsPages: Handler = (ctx) => {
  const known = ['/', '/p/1', '/p/2'];
  if (known.includes(ctx.path)) return page(ctx, `${ctx.site.fault} ${ctx.path}`, ['/p/1', '/p/2']);
  notFound(ctx);
};

/** Their handshake never completes: nothing is ever asked over HTTP. */
const unreachable: Handler = (ctx) => notFound(ctx);

const HTML = 'text/html; charset=utf-8';
const page = (ctx: Ctx, title: string, hrefs: string[] = ['/']) => sendHtml(ctx, 200, simplePage(title, hrefs));
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const HANDLERS: Record<FaultKind, Handler> = {
  'stall-headers': () => {
    // Never answer; the server's stop() closes the socket.
  },
  'stall-body': (ctx) => {
    const html = simplePage('Stalled body', ['/']);
    ctx.res.writeHead(200, { 'content-type': HTML, 'content-length': 100_000 });
    if (ctx.head) return void ctx.res.end();
    const part = Buffer.from(html.padEnd(2000, ' ').slice(0, 2000));
    ctx.entry.bytes += part.length;
    ctx.res.write(part);
  },
  reset: (ctx) => {
    ctx.req.socket.resetAndDestroy();
  },
  'redirect-loop': (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Redirect loop', ['/a']);
    if (ctx.path === '/a') return redirect(ctx, 302, '/b');
    if (ctx.path === '/b') return redirect(ctx, 302, '/a');
    notFound(ctx);
  },
  'redirect-chain': (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Redirect chain', ['/r/0']);
    const m = /^\/r\/(\d{1,3})$/.exec(ctx.path);
    const n = m ? Number(m[1]) : -1;
    if (n >= 0 && n < REDIRECT_CHAIN_LENGTH) return redirect(ctx, 301, `/r/${n + 1}`);
    if (n === REDIRECT_CHAIN_LENGTH) return page(ctx, 'End of the redirect chain');
    notFound(ctx);
  },
  calendar: (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Events calendar', ['/cal?y=2024&m=3', '/cal/2024/03/']);
    const ym = calendarMonth(ctx.path);
    if (!ym) return notFound(ctx);
    const [y, m, dynamic] = ym;
    const href = (yy: number, mm: number) =>
      dynamic ? `/cal?y=${yy}&m=${mm}` : `/cal/${String(yy).padStart(4, '0')}/${String(mm).padStart(2, '0')}/`;
    const next = m === 12 ? href(y + 1, 1) : href(y, m + 1);
    const links = [next, href(y + 1, m)];
    if (y > 1 || m > 1) links.unshift(m === 1 ? href(y - 1, 12) : href(y, m - 1));
    page(ctx, `Calendar ${y}-${m}`, links);
  },
  session: (ctx) => {
    const n = ctx.path === '/' ? -1 : sessionPage(ctx.path);
    if (n === undefined) return notFound(ctx);
    // Fresh ids on every fetch: the URL space is infinite until session ids are stripped.
    const links = [1, 2, 3, 4, 5].map((k, i) => {
      const t = (n + k + SESSION_PAGES) % SESSION_PAGES;
      return i % 2 === 0 ? `/p?id=${t}&PHPSESSID=${hex(16)}` : `/p/${t};jsessionid=${hex(12).toUpperCase()}`;
    });
    page(ctx, n < 0 ? 'Session shop' : `Session page ${n}`, links);
  },
  huge: (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Huge bodies', ['/endless', '/big']);
    const chunk = Buffer.alloc(64 * 1024, 'All work and no play. ');
    if (ctx.path === '/endless') return stream(ctx, { 'content-type': HTML }, chunk, Infinity);
    if (ctx.path === '/big') return stream(ctx, { 'content-type': HTML }, chunk, BIG_BYTES);
    notFound(ctx);
  },
  'gzip-bomb': (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Bombs', ['/bomb', '/bomb-br']);
    if (ctx.path === '/bomb') return send(ctx, 200, { 'content-type': HTML, 'content-encoding': 'gzip' }, gzipBomb());
    if (ctx.path === '/bomb-br') {
      void brotliBomb().then((b) => send(ctx, 200, { 'content-type': HTML, 'content-encoding': 'br' }, b));
      return;
    }
    notFound(ctx);
  },
  binary: (ctx) => {
    const bodies: Record<string, [string, Buffer]> = {
      '/report.pdf': ['application/pdf', Buffer.from('%PDF-1.4\n% <a href="/not-a-link.html">\n%%EOF\n')],
      '/logo.png': ['image/png', Buffer.from('\x89PNG\r\n\x1a\n<a href="/not-a-link.html">', 'latin1')],
      '/data.bin': ['application/octet-stream', Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0x3c, 0x61, 0x3e])],
      '/photo.html': ['image/png', Buffer.from('\x89PNG\r\n\x1a\n', 'latin1')],
    };
    if (ctx.path === '/') return page(ctx, 'Binary files', Object.keys(bodies));
    const b = bodies[ctx.path];
    if (!b) return notFound(ctx);
    send(ctx, 200, { 'content-type': b[0] }, b[1]);
  },
  'broken-html': (ctx) => {
    if (ctx.path === '/') return send(ctx, 200, { 'content-type': 'text/html' }, BROKEN_HTML);
    if (BROKEN_HTML_LINKS.includes(ctx.path)) return page(ctx, `Target ${ctx.path}`);
    notFound(ctx);
  },
  latin1: (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Legacy encodings', Object.keys(LATIN1_TITLES));
    if (ctx.path === '/cp1252.html') {
      return send(ctx, 200, { 'content-type': 'text/html; charset=windows-1252' }, latin1Body('/cp1252.html'));
    }
    if (ctx.path === '/sjis-meta.html' || ctx.path === '/sjis-equiv.html') {
      return send(ctx, 200, { 'content-type': 'text/html' }, latin1Body(ctx.path));
    }
    notFound(ctx);
  },
  slow: (ctx) => {
    const known = ['/', '/slow/1', '/slow/2'];
    later(ctx, scaled(ctx, SLOW_MS), () =>
      known.includes(ctx.path) ? page(ctx, `Slow ${ctx.path}`, ['/slow/1', '/slow/2']) : notFound(ctx),
    );
  },
  robots500: (ctx) => {
    const known = ['/', '/secret/1', '/secret/2'];
    if (known.includes(ctx.path)) return page(ctx, 'Never fetch me', ['/secret/1', '/secret/2']);
    notFound(ctx);
  },
  robots404: (ctx) => {
    const known = ['/', '/open/1', '/open/2'];
    if (known.includes(ctx.path)) return page(ctx, `Open ${ctx.path}`, ['/open/1', '/open/2']);
    notFound(ctx);
  },
  error5xx: (ctx, state) => {
    if (ctx.path === '/') return page(ctx, 'Errors', ['/flaky/0', '/flaky/1', '/flaky/2', '/always500']);
    if (ctx.path === '/always500') return sendHtml(ctx, 500, simplePage('Internal error', []));
    if (!/^\/flaky\/[0-2]$/.test(ctx.path)) return notFound(ctx);
    if (state.hit(ctx) <= 2) return sendHtml(ctx, 503, simplePage('Try later', []), { 'retry-after': '1' });
    page(ctx, `Recovered ${ctx.path}`);
  },
  'tls-expired': tlsPages,
  'tls-self-signed': tlsPages,
  'tls-wrong-name': tlsPages,
  'tls-long-chain': tlsPages,
  'tls-handshake-fail': unreachable,
  'tls-handshake-stall': unreachable,
  'tls-huge-chain': unreachable,
  'tls-record-flood': (ctx) => {
    if (ctx.path === '/') return page(ctx, 'Record flood', ['/flood']);
    if (ctx.path !== '/flood') return notFound(ctx);
    ctx.res.writeHead(200, { 'content-type': HTML });
    if (ctx.head) return void ctx.res.end();
    // One byte a write: each goes out as a TLS record of its own, for as long as the client reads.
    const one = Buffer.from('x');
    const pump = (): void => {
      for (let i = 0; i < 256 && !ctx.res.destroyed; i++) {
        ctx.entry.bytes++;
        if (!ctx.res.write(one)) return void ctx.res.once('drain', pump);
      }
      if (!ctx.res.destroyed) setImmediate(pump);
    };
    pump();
  },
  ratelimit: (ctx, state) => {
    const known = ['/', '/p/0', '/p/1', '/p/2', '/p/3', '/p/4'];
    if (!known.includes(ctx.path)) return notFound(ctx);
    if (state.hit(ctx) === 1) return sendHtml(ctx, 429, simplePage('Too many requests', []), { 'retry-after': '1' });
    page(ctx, `Rate limited ${ctx.path}`, known.slice(1));
  },
};

export function serveFault(kind: FaultKind, ctx: Ctx, state: FaultState): void {
  HANDLERS[kind](ctx, state);
}

/** [year, month, dynamic] of a calendar URL, or undefined. */
function calendarMonth(path: string): [number, number, boolean] | undefined {
  const st = /^\/cal\/(\d{4,6})\/(\d{2})\/$/.exec(path);
  if (st) {
    const y = Number(st[1]);
    const m = Number(st[2]);
    return m >= 1 && m <= 12 && y >= 1 ? [y, m, false] : undefined;
  }
  if (!path.startsWith('/cal?')) return undefined;
  const q = new URLSearchParams(path.slice(5));
  const y = Number(q.get('y'));
  const m = Number(q.get('m'));
  return Number.isInteger(y) && Number.isInteger(m) && y >= 1 && y < 1e6 && m >= 1 && m <= 12 ? [y, m, true] : undefined;
}

/** Page number of a session URL (session ids ignored), or undefined. */
function sessionPage(path: string): number | undefined {
  let n: number;
  const st = /^\/p\/(\d+)(;jsessionid=[^?]*)?$/i.exec(path);
  if (st) n = Number(st[1]);
  else if (path.startsWith('/p?')) n = Number(new URLSearchParams(path.slice(3)).get('id') ?? NaN);
  else return undefined;
  return Number.isInteger(n) && n >= 0 && n < SESSION_PAGES ? n : undefined;
}
