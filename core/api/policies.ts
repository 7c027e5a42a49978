/**
 * Policy descriptions for the UI, from the one registry. A policy may describe its
 * parameters (`params`, as an array or a record); policies that do not are shown with none.
 */
import { listPolicies } from '../policies/registry.js';
import type { PolicyDescription, PolicyParam } from './contract.js';

/**
 * Each parameter in a researcher's words for the workbench's form (a label and a tooltip),
 * where the CLI has its flags (policies/params.ts): the form never names a flag.
 */
const IN_WORDS: Record<string, { label: string; summary: string }> = {
  history: { label: 'History crawl', summary: 'An earlier crawl whose PageRank guides this one' },
  newPages: { label: 'Value of new pages', summary: "How pages not in the history crawl are valued: zero, random, or their parent's (default parent)" },
  seed: { label: 'Random seed', summary: 'Seed of the random values given to pages not in the history crawl (default 1)' },
  topic: { label: 'Topic word', summary: 'Pages whose URL or anchor text holds this word, and the pages up to 3 links around them, go first' },
  batch: { label: 'K: pages between PageRank computations', summary: 'PageRank of the graph seen so far is computed again every K fetched pages (default: the batch size, else a thirtieth of the page limit, else 1,000)' },
  alpha: { label: 'Smoothing of measurements (alpha)', summary: 'Weight of the old estimate when a connection or response time is measured again: new = old × alpha + measured × (1 − alpha) (default 0.8)' },
  p: { label: 'Pipelining saving (p)', summary: 'p in T = 2 × connection time + P × response time / p, the time to fetch P pages over one connection (default 1.2)' },
  requestsPerConnection: { label: 'Pages per connection, unmeasured server', summary: 'Pages per connection assumed for a server until it is measured (default 50)' },
};

export function describePolicies(): PolicyDescription[] {
  return listPolicies().map((info) => ({ name: info.name, summary: info.summary, params: paramsOf(info).map((p) => ({ ...p, ...(IN_WORDS[p.name] ?? {}) })) }));
}

function paramsOf(info: object): PolicyParam[] {
  const raw = (info as { params?: unknown }).params;
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object'
      ? Object.entries(raw).map(([name, v]) => ({ name, ...(typeof v === 'object' && v ? v : { default: v }) }))
      : [];
  return list.flatMap((p): PolicyParam[] => {
    // The registry lists parameter names only (e.g. ['history', 'seed']): paths are text, the rest numbers.
    if (typeof p === 'string') return [{ name: p, type: p === 'history' ? ('string' as const) : ('number' as const) }];
    const o = p as Record<string, unknown>;
    if (typeof o.name !== 'string') return [];
    const type = ['number', 'integer', 'string', 'boolean'].includes(o.type as string) ? (o.type as PolicyParam['type']) : typeof o.default === 'boolean' ? 'boolean' : typeof o.default === 'string' ? 'string' : 'number';
    const summary = typeof o.summary === 'string' ? o.summary : typeof o.description === 'string' ? o.description : undefined;
    return [{ name: o.name, type, default: jsonSafe(o.default), ...(summary ? { summary } : {}) }];
  });
}

function jsonSafe(v: unknown): unknown {
  return v === undefined || typeof v === 'function' ? undefined : JSON.parse(JSON.stringify(v));
}
