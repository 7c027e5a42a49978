import { CrawlError, ErrorCodes } from '../errors.js';
import type { PolicyContext } from './context.js';

/**
 * Policy parameters (settings.policyParams): the one table of them. Each has its CLI flag and
 * summary (`crawlbench crawl --help`), and its label and summary in a researcher's words for
 * the workbench's form, which never names a flag (api/policies.ts reads these). Errors name the
 * flag, so that `--alpha 2` and `policyParams: {alpha: 2}` report the same one line.
 */
export interface ParamInfo {
  flag: string;
  summary: string;
  /** The parameter in the form's words. */
  label: string;
  /** Its tooltip in the form's words. */
  words: string;
}

export const PARAMS: Record<string, ParamInfo> = {
  history: {
    flag: '--history', summary: 'crawl database of an earlier crawl: its PageRank guides this one',
    label: 'History crawl', words: 'An earlier crawl whose PageRank guides this one',
  },
  newPages: {
    flag: '--new-pages', summary: 'quality with --history: value of pages not in it (zero | random | parent; default parent)',
    label: 'Value of new pages', words: "How pages not in the history crawl are valued: zero, random, or their parent's (default parent)",
  },
  seed: {
    flag: '--policy-seed', summary: 'seed of historical-pagerank-random draws (default 1)',
    label: 'Random seed', words: 'Seed of the random values given to pages not in the history crawl (default 1)',
  },
  topic: {
    flag: '--topic', summary: 'topic word: pages whose URL or anchor text holds it, and pages 3 links around, go first',
    label: 'Topic word', words: 'Pages whose URL or anchor text holds this word, and the pages up to 3 links around them, go first',
  },
  topicOrder: {
    flag: '--topic-order', summary: 'topic: the order of both queues, breadth-first | backlink-count | batch-pagerank (default breadth-first)',
    label: 'Topic: order of the pages', words: 'How the topic crawl orders its hot pages and the rest: breadth-first, by backlinks found so far, or by PageRank of the graph seen so far (default breadth-first)',
  },
  topicRadius: {
    flag: '--topic-radius', summary: 'topic: pages this many links or fewer from a matching page are hot too (default 3; 0: anchor and URL only)',
    label: 'Topic: links around a match', words: 'Pages up to this many links from a page whose URL or link text holds the word go first too (default 3; 0: only the URL and the link text count)',
  },
  batch: {
    flag: '--batch', summary: 'recompute PageRank every K fetched pages (default settings.batch, else maxPages/30, else 1000)',
    label: 'K: pages between PageRank computations', words: 'PageRank of the graph seen so far is computed again every K fetched pages (default: the batch size, else a thirtieth of the page limit, else 1,000)',
  },
  alpha: {
    flag: '--alpha', summary: 'EWMA weight of the old estimate: new = old*alpha + measured*(1-alpha) (default 0.8)',
    label: 'Smoothing of measurements (alpha)', words: 'Weight of the old estimate when a connection or response time is measured again: new = old × alpha + measured × (1 − alpha) (default 0.8)',
  },
  p: {
    flag: '--pipelining', summary: 'pipelining saving p in T = 2*ConnectionTime + P*ResponseTime/p (default 1.2)',
    label: 'Pipelining saving (p)', words: 'p in T = 2 × connection time + P × response time / p, the time to fetch P pages over one connection (default 1.2)',
  },
  requestsPerConnection: {
    flag: '--requests-per-connection', summary: 'RequestsPerConnection of a server not yet measured (default 50)',
    label: 'Pages per connection, unmeasured server', words: 'Pages per connection assumed for a server until it is measured (default 50)',
  },
};

function flag(name: string): string {
  return PARAMS[name]?.flag ?? `policyParams.${name}`;
}

/** A bad policy parameter: named by its flag for the CLI, and by its field for a form. */
function badParam(name: string, problem: string): CrawlError {
  return new CrawlError(ErrorCodes.BAD_OPTION, `${flag(name)}: ${problem}`, { field: `policyParams.${name}` });
}

/** Refuses parameters the policy does not take (a typo would otherwise be silently ignored). */
export function checkParams(policy: string, takes: readonly string[], params: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || takes.includes(key)) continue;
    const known = takes.length > 0 ? `it takes ${takes.map(flag).join(', ')}` : 'it takes none';
    throw badParam(key, `not a parameter of policy ${policy} (${known})`);
  }
}

export function numberParam(params: Record<string, unknown>, name: string, def: number, min: number, max = Infinity, integer = false): number {
  const v = params[name];
  // Only an absent parameter takes the default: null (a form's NaN after JSON) is a bad value.
  if (v === undefined) return def;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  const ok = typeof n === 'number' && Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
  if (!ok) {
    const range = max === Infinity ? `>= ${min}` : `between ${min} and ${max}`;
    throw badParam(name, `${JSON.stringify(v)} is not ${integer ? 'a whole number' : 'a number'} ${range}`);
  }
  return n as number;
}

export function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw badParam(name, `${JSON.stringify(v)} is not a non-empty string`);
  return v;
}

export function choiceParam<T extends string>(params: Record<string, unknown>, name: string, choices: readonly T[], def: T): T {
  const v = stringParam(params, name) ?? def;
  if (!choices.includes(v as T)) throw badParam(name, `"${v}" (use ${choices.join(', ')})`);
  return v as T;
}

/**
 * K of the batch policies: the scheduler's batch size when it works in batches (then it
 * calls onBatch every K pages), else the batch parameter, else a thirtieth of the expected
 * crawl size (maxPages), else 1000.
 */
export function batchSize(params: Record<string, unknown>, ctx: PolicyContext): { k: number; scheduled: boolean } {
  if (ctx.batch !== undefined && ctx.batch !== null) {
    if (!(Number.isInteger(ctx.batch) && ctx.batch >= 1)) throw new CrawlError(ErrorCodes.BAD_OPTION, `--batch: ${ctx.batch} is not a whole number >= 1`, { field: 'batch' });
    return { k: ctx.batch, scheduled: true };
  }
  const fallback = ctx.maxPages ? Math.max(1, Math.round(ctx.maxPages / 30)) : 1000;
  return { k: numberParam(params, 'batch', fallback, 1, Infinity, true), scheduled: false };
}
