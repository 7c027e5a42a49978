/**
 * The crawl-ability paper's experiments as crawls of the test web (Cao, Jiang, Singh, section 5;
 * docs/design.md sections 3.4 and 8.4): each crawl is `crawlbench crawl` in its own process
 * against `crawlbench testweb` in another, as a user would run them, and the figures are read
 * from the crawl databases. `reproduce --paper cao` and bench/http-modes both use these.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { withCrawlReader } from '../store/crawl-reader.js';
import { canonicalize } from '../url/canonical.js';

/** bin/crawlbench.js, from the built module (dist/core/reproduce) or its source (core/reproduce). */
export function cliPath(): string {
  for (const rel of ['../../../bin/crawlbench.js', '../../bin/crawlbench.js']) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  throw new Error('bin/crawlbench.js not found beside the build');
}

/** The three ways to use a connection that the paper compares (its section 5.2.1, Figure 4). */
export const MODES = {
  /** A new connection per page, as HTTP/1.0 does. */
  'http/1.0': (_depth: number) => ['--c', '1'],
  /** Persistent connections, each request sent after the previous response. */
  'keep-alive': (_depth: number) => ['--c', '100'],
  /** Persistent connections, up to `depth` requests out before their responses. */
  pipelining: (depth: number) => ['--c', '100', '--pipelining-depth', String(depth)],
} as const;
export type Mode = keyof typeof MODES;

export interface TestWebInfo {
  url: string;
  port: number;
  resolve: string;
  sites: number;
  pages: number;
}

/** `crawlbench testweb ARGS` in its own process; resolves once it prints its ready line. */
export async function startTestWeb(args: string[]): Promise<{ child: ChildProcess; info: TestWebInfo; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [cliPath(), 'testweb', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<TestWebInfo>((resolveInfo, reject) => {
    child.once('exit', (code) => reject(new Error(`testweb exited with ${code} before it was ready`)));
    lines.once('line', (line) => resolveInfo(JSON.parse(line) as TestWebInfo));
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { child, info, stop };
}

export interface CrawlRun {
  pagesFetched: number;
  seconds: number;
  stopReason: string;
}

/**
 * `crawlbench crawl ARGS --json --quiet` in its own process; its summary. What it says on
 * stderr is passed on, and a failure carries its last line (the one-line refusal of the CLI).
 */
export function runCrawl(args: string[]): Promise<CrawlRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [cliPath(), 'crawl', ...args, '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      process.stderr.write(d);
      err = (err + d.toString()).slice(-4096);
    });
    // The summary is the last line (a parallel crawl may print its prediction's line before it).
    child.once('close', (code) => (code === 0 ? resolveRun(JSON.parse(out.trim().split('\n').at(-1)!) as CrawlRun) : reject(new Error(`crawl exited with ${code}: ${err.trim().split('\n').at(-1) ?? ''}`))));
  });
}

/** The flags every crawl of the experiments shares: the test web's hosts on loopback, no politeness wait. */
export function baseArgs(db: string, seeds: string, resolve: string): string[] {
  return [
    '--db', db, '--seeds', seeds, ...resolve.split(',').flatMap((rule) => ['--resolve', rule]),
    '--w', '0ms', '--robots-retry', '0ms', '--max-crawl-delay', '0', '--retry-base', '0ms',
  ];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Fetched pages of a crawl database in the order they were stored: URL and epoch ms. */
export function fetchedPages(db: string): Array<{ url: string; at: number }> {
  return withCrawlReader(db, (reader) => {
    const out: Array<{ url: string; at: number }> = [];
    for (const p of reader.pagesByFetch(['url', 'status', 'fetchedAt'])) if (p.status === 'fetched' && p.fetchedAt !== null) out.push({ url: p.url, at: p.fetchedAt });
    return out;
  });
}

/**
 * Pages per second over the crawl's middle third of pages. The first third (home pages, first
 * connections) and the last are left out: near --max-pages the last pages are out in a few
 * connections holding up to c each, and with c = 100 the crawl ends on two or three of them.
 */
export function steadyRate(pages: Array<{ at: number }>): number {
  if (pages.length < 3) return NaN;
  const from = Math.floor(pages.length / 3);
  const to = Math.floor((2 * pages.length) / 3);
  return (to - from) / ((pages[to]!.at - pages[from]!.at) / 1000);
}

/** The qualities testweb --quality zipf wrote (URL<TAB>quality), by canonical URL. */
export function readQualities(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const url = canonicalize(line.slice(0, tab));
    if (url) out.set(url, Number(line.slice(tab + 1)));
  }
  return out;
}

export interface Curve {
  /** Seconds from the crawl's first page to its last. */
  seconds: number;
  pages: number;
  /** At each time fraction of `horizon` seconds: the share of all pages fetched by then, and of all quality. */
  byTime: Array<{ t: number; pages: number; quality: number }>;
  /** At each fraction of the pages fetched: the share of all quality fetched by then (the paper's metric 2). */
  byPages: Array<{ pages: number; quality: number }>;
}

/**
 * The paper's three metrics (its section 5.3): pages over time, quality over pages, quality
 * over time, as shares of the `total` pages and `totalQuality` of the web.
 */
export function curve(pages: Array<{ url: string; at: number }>, q: Map<string, number>, horizon: number, steps: number[], total: number, totalQuality: number): Curve {
  const t0 = pages[0]?.at ?? 0;
  const cum: number[] = [];
  let acc = 0;
  for (const p of pages) cum.push((acc += q.get(p.url) ?? 0));
  const byTime = steps.map((f) => {
    const limit = t0 + f * horizon * 1000;
    let n = 0;
    while (n < pages.length && pages[n]!.at <= limit) n++;
    return { t: f, pages: n / total, quality: n ? cum[n - 1]! / totalQuality : 0 };
  });
  const byPages = steps.map((f) => {
    const n = Math.min(pages.length, Math.round(f * total));
    return { pages: f, quality: n ? cum[n - 1]! / totalQuality : 0 };
  });
  return { seconds: pages.length ? (pages[pages.length - 1]!.at - t0) / 1000 : 0, pages: pages.length, byTime, byPages };
}
