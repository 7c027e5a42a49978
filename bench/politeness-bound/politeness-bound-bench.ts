import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateWeb } from '../../core/testweb/generator.js';
import { politenessViolations, type LoggedRequest } from '../../core/testweb/politeness-check.js';
import { chainLoss, politenessBound, type Bound, type ChainLoss } from './bound.js';
import { CLI, ROOT, readRequestLog, startTestWeb } from './processes.js';

/**
 * How close crawlbench comes to the fastest crawl politeness allows (issue 6, item 4). A test
 * web with per-site latencies is served by `crawlbench testweb` in its own process and crawled
 * to the end by the CLI in another, with w > 0; the bench then reads the server's request log
 * and compares the crawl's duration with the lower bound that w, c, r and the latencies allow
 * (bound.ts), over the whole crawl and over its last 10% of requests, when few sites remain.
 *
 *   npm run bench:politeness-bound [-- --sites 200 --pages 20000 --max-site-pages 2000
 *      --latency 200 --time-factor 0.1 --w 100 --c 10 --r 64 --json]
 *
 * Target: the crawl takes at most bound / 0.95 (ratio >= 0.95), in the tail too.
 */
const { values: flags } = parseArgs({
  options: {
    sites: { type: 'string', default: '200' },
    pages: { type: 'string', default: '20000' },
    'max-site-pages': { type: 'string', default: '2000' },
    'web-seed': { type: 'string', default: '7' },
    latency: { type: 'string', default: '200' },
    'time-factor': { type: 'string', default: '0.1' },
    w: { type: 'string', default: '100' },
    c: { type: 'string', default: '10' },
    r: { type: 'string', default: '64' },
    policy: { type: 'string', default: 'breadth-first' },
    json: { type: 'boolean' },
  },
});
const w = Number(flags.w);
const c = Number(flags.c);
const r = Number(flags.r);
// An unreachable robots.txt is asked again after w: the bound counts that wait too.
const robotsRetry = w;

const outDir = join(ROOT, 'bench', 'out', 'politeness-bound');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const logPath = join(outDir, 'requests.ndjson');
const seedsPath = join(outDir, 'seeds.txt');
const dbPath = join(outDir, 'crawl.db');

const webArgs = [
  '--web-seed', String(flags['web-seed']), '--sites', String(flags.sites), '--pages', String(flags.pages),
  '--max-site-pages', String(flags['max-site-pages']), '--latency', String(flags.latency),
];
// The same web in this process (generation is deterministic), for its sites' keep-alive limits.
const web = generateWeb({
  seed: Number(flags['web-seed']), sites: Number(flags.sites), pages: Number(flags.pages),
  maxSitePages: Number(flags['max-site-pages']), latency: { maxMs: Number(flags.latency) },
});
const siteByHost = new Map(web.sites.map((s) => [s.host.toLowerCase(), s]));

const load0 = loadavg();
const server = await startTestWeb([...webArgs, '--time-factor', String(flags['time-factor']), '--log', logPath, '--seeds-out', seedsPath]);
let summary: Record<string, unknown>;
try {
  const crawlArgs = [
    // Every site's home page is a seed, so the default scope (the seeds' hosts) is the web.
    CLI, 'crawl', '--db', dbPath, '--seeds', seedsPath, ...server.info.resolve.split(',').flatMap((rule) => ['--resolve', rule]),
    '--policy', String(flags.policy), '--w', `${w}ms`, '--c', String(c), '--r', String(r),
    '--robots-retry', `${robotsRetry}ms`, '--max-crawl-delay', '0', '--json', '--quiet',
  ];
  summary = await new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, crawlArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolveRun(JSON.parse(out)) : reject(new Error(`crawl exited with ${code}: ${out}`))));
  });
} finally {
  await server.stop();
}

const requests: LoggedRequest[] = [];
await readRequestLog(logPath, (q) => requests.push({ t: q.t, tEnd: q.tEnd, host: q.host, connId: q.connId, ...{ path: q.path, status: q.status } } as LoggedRequest));
requests.sort((a, b) => a.t - b.t);
const isRobotsFailure = (q: LoggedRequest) => {
  const x = q as LoggedRequest & { path: string; status: number };
  return x.path === '/robots.txt' && (x.status >= 500 || x.status === 0);
};
const limits = (host: string) => siteByHost.get(host);
const params = { w, c, r, robotsRetry };
const whole = politenessBound(requests, isRobotsFailure, limits, params);
// The tail: from the start of the request that began the last 10% of requests.
const tailFrom = requests[Math.floor(requests.length * 0.9)]!.t;
const tail = politenessBound(requests, isRobotsFailure, limits, params, tailFrom);
const violations = politenessViolations(requests, new Map(), { w, c });
const lossWhole = chainLoss(requests, whole.chainHost, w);
const lossTail = chainLoss(requests, tail.chainHost, w, tailFrom);
// How far below w the closest violations came (the server timestamps its 'finish' late when busy).
const shortest = violations.map((v) => Number(/only ([\d.]+) ms/.exec(v)?.[1] ?? NaN)).filter(Number.isFinite);

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const describe = (b: Bound) => ({
  actualSeconds: round(b.actualMs / 1000, 2),
  boundSeconds: round(b.boundMs / 1000, 2),
  ratio: round(b.ratio, 3),
  longestChainSeconds: round(b.chainMs / 1000, 2),
  longestChainSite: b.chainHost,
  workOverRSeconds: round(b.workMs / 1000, 2),
  requests: b.requests,
  sites: b.sites,
});
const result = {
  bench: 'politeness-bound',
  date: new Date().toISOString(),
  web: { sites: web.sites.length, pages: web.pageCount, maxSitePages: Number(flags['max-site-pages']), latencyMaxMs: Number(flags.latency), timeFactor: Number(flags['time-factor']) },
  w, c, r, policy: flags.policy,
  crawl: { pagesFetched: summary.pagesFetched, seconds: summary.seconds, errors: summary.errors },
  whole: describe(whole),
  last10Percent: describe(tail),
  lossWhole,
  lossTail,
  violations: violations.length,
  shortestGapMs: shortest.length ? Math.min(...shortest) : null,
  loadAverage: { start: load0.map((x) => round(x, 2)), end: loadavg().map((x) => round(x, 2)) },
  target: 0.95,
};
writeFileSync(join(outDir, 'result.json'), JSON.stringify(result, null, 2) + '\n');
function loss(name: string, l: ChainLoss): string {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `  ${name.padEnd(14)} ${l.host}: ${l.requests} requests over ${l.connections} connections; server ${s(l.serviceMs)} s, ` +
    `crawler turnaround inside connections ${s(l.insideMs)} s, between connections beyond w ${s(l.betweenBeyondWMs)} s ` +
    `(gap p50 ${l.gapP50.toFixed(1)} ms, p90 ${l.gapP90.toFixed(1)} ms)`;
}
if (flags.json) {
  process.stdout.write(JSON.stringify(result) + '\n');
} else {
  const line = (name: string, b: ReturnType<typeof describe>) =>
    `  ${name.padEnd(14)} ${b.actualSeconds} s against a bound of ${b.boundSeconds} s: ratio ${b.ratio} ` +
    `${b.ratio >= 0.95 ? '(ok)' : '(MISSED, target 0.95)'}; longest chain ${b.longestChainSeconds} s (${b.longestChainSite}), work/r ${b.workOverRSeconds} s, ${b.requests} requests on ${b.sites} sites`;
  process.stdout.write(
    [
      `politeness bound: ${result.web.pages} pages on ${result.web.sites} sites, latency <= ${result.web.latencyMaxMs} ms x ${result.web.timeFactor}, w = ${w} ms, c = ${c}, r = ${r}, ${flags.policy}`,
      `  crawl          ${summary.pagesFetched} pages in ${summary.seconds} s (crawler's clock)`,
      line('whole crawl', result.whole),
      line('last 10%', result.last10Percent),
      loss('whole crawl', lossWhole),
      loss('last 10%', lossTail),
      `  politeness     ${violations.length} violations${violations.length ? ': ' + violations.slice(0, 3).join('; ') : ''}`,
      `  load average   ${load0[0]!.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`,
    ].join('\n') + '\n',
  );
}
