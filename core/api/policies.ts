/**
 * Policy descriptions for the UI, from the one registry. A policy may describe its
 * parameters (`params`, as an array or a record); policies that do not are shown with none.
 */
import { PARAMS } from '../policies/params.js';
import { listPolicies } from '../policies/registry.js';
import type { PolicyDescription, PolicyParam } from './contract.js';

export function describePolicies(): PolicyDescription[] {
  return listPolicies().map((info) => ({ name: info.name, summary: info.summary, params: paramsOf(info).map((p) => ({ ...p, ...inWords(p.name) })) }));
}

/** A parameter's label and tooltip in the form's words (the one table, policies/params.ts): the form never names a flag. */
function inWords(name: string): { label?: string; summary?: string } {
  const p = PARAMS[name];
  return p ? { label: p.label, summary: p.words } : {};
}

/** The parameters whose values are text: a path, a word, a choice. */
const TEXT_PARAMS = new Set(['history', 'topic', 'topicOrder', 'newPages']);

function paramsOf(info: object): PolicyParam[] {
  const raw = (info as { params?: unknown }).params;
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object'
      ? Object.entries(raw).map(([name, v]) => ({ name, ...(typeof v === 'object' && v ? v : { default: v }) }))
      : [];
  return list.flatMap((p): PolicyParam[] => {
    // The registry lists parameter names only (e.g. ['history', 'seed']): paths and words are text, the rest numbers.
    if (typeof p === 'string') return [{ name: p, type: TEXT_PARAMS.has(p) ? ('string' as const) : ('number' as const) }];
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
