import { spawn } from 'node:child_process';
import { CLI } from '../politeness-bound/processes.js';

/** The three ways to use a connection that the crawl-ability paper compares (its section 5.2.1, Figure 4). */
export const MODES = {
  /** A new connection per page, as HTTP/1.0 does. */
  'http/1.0': (_depth: number) => ['--c', '1'],
  /** Persistent connections, each request sent after the previous response. */
  'keep-alive': (_depth: number) => ['--c', '100'],
  /** Persistent connections, up to `depth` requests out before their responses. */
  pipelining: (depth: number) => ['--c', '100', '--pipelining-depth', String(depth)],
} as const;
export type Mode = keyof typeof MODES;

export interface CrawlRun {
  pagesFetched: number;
  seconds: number;
  stopReason: string;
}

/** `crawlbench crawl ARGS --json --quiet` in its own process; its summary. */
export function runCrawl(args: string[]): Promise<CrawlRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI, 'crawl', ...args, '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolveRun(JSON.parse(out) as CrawlRun) : reject(new Error(`crawl exited with ${code}: ${out}`))));
  });
}

/** The flags every crawl of the bench shares: the test web's hosts on loopback, no politeness wait. */
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
