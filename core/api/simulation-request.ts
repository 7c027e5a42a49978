/**
 * A simulation request from the workbench (or a script on the API) checked field by field,
 * with `crawlbench simulate`'s defaults filled in, before anything runs: every refusal names
 * its field (badField), so the form shows it where it belongs. The source is named by id only
 * (a crawl of the workspace or a dataset folder's name), never by a path.
 */
import { SETTING_LIMITS, type LimitedSetting } from '../config/limits.js';
import { badField } from '../errors.js';
import { listPolicies } from '../policies/registry.js';
import type { SimulationDto, SimulationRequest } from './contract.js';

export type CheckedSimulationRequest = SimulationDto['request'];

/** A crawl id or a dataset folder name: no path separators, no leading dot. */
export const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const FIELDS = new Set([
  'source', 'policies', 'r', 'w', 'c', 'bandwidth', 'latency', 'networkSeed', 'batch', 'maxPages', 'maxPagesPerSite', 'siteKey', 'perIp', 'topic', 'historyShare', 'historyCrawl', 'seeds',
]);
const MAX_SEEDS = 100_000;

/** The simulator's policies (the one registry), in its order. */
export function simulatorPolicies(): string[] {
  return listPolicies({ simulator: true }).map((p) => p.name);
}

function whole(v: unknown, field: string, limit: LimitedSetting): number {
  const { min, max } = SETTING_LIMITS[limit];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badField(field, `${String(v)} is not a whole number from ${min} to ${max}`);
  return v;
}

function orNull(v: unknown, field: string, limit: LimitedSetting): number | null {
  return v === undefined || v === null ? null : whole(v, field, limit);
}

function bool(v: unknown, field: string, def: boolean): boolean {
  if (v === undefined) return def;
  if (typeof v !== 'boolean') throw badField(field, 'must be true or false');
  return v;
}

export function parseSimulationRequest(raw: SimulationRequest): CheckedSimulationRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw badField('source', 'a simulation request is an object');
  for (const k of Object.keys(raw)) if (!FIELDS.has(k)) throw badField(k, 'is not a field of a simulation request');
  const src = raw.source as unknown;
  if (src === null || typeof src !== 'object') throw badField('source', 'choose a crawl or a dataset');
  const { kind, id } = src as { kind?: unknown; id?: unknown };
  if (kind !== 'crawl' && kind !== 'dataset') throw badField('source', `"${String(kind)}" is not crawl or dataset`);
  if (typeof id !== 'string' || !SOURCE_ID.test(id) || id.includes('..')) throw badField('source', `"${String(id)}" is not the name of a crawl or dataset (letters, digits, . _ -)`);
  for (const k of Object.keys(src)) if (k !== 'kind' && k !== 'id') throw badField('source', `"${k}" is not part of a source (kind and id)`);

  let topic: string | undefined;
  if (raw.topic !== undefined && raw.topic !== '') {
    if (typeof raw.topic !== 'string' || raw.topic.trim() === '' || raw.topic.length > 200) throw badField('topic', 'a word (at most 200 characters)');
    topic = raw.topic.trim();
  }
  if (!Array.isArray(raw.policies) || raw.policies.length === 0) throw badField('policies', 'choose at least one policy');
  const known = simulatorPolicies();
  const policies: string[] = [];
  for (const name of raw.policies as unknown[]) {
    if (name === 'all') {
      for (const k of known) if (k !== 'topic' || topic !== undefined) policies.push(k);
    } else if (typeof name !== 'string' || !known.includes(name)) {
      throw badField('policies', `"${String(name)}" is not a policy of the simulator (${known.join(', ')}, or all)`);
    } else if (name === 'topic' && topic === undefined) {
      throw badField('topic', 'the topic policy needs a topic word');
    } else policies.push(name);
  }

  const w = raw.w ?? 15_000;
  if (typeof w !== 'number' || !Number.isFinite(w) || w < SETTING_LIMITS.w.min || w > SETTING_LIMITS.w.max) throw badField('w', `${String(w)} ms is not a wait from 0 to 1 hour`);
  const bandwidth = orNull(raw.bandwidth, 'bandwidth', 'bandwidth');
  const networkSeed = raw.networkSeed ?? 1;
  if (typeof networkSeed !== 'number' || !Number.isInteger(networkSeed) || networkSeed < 0 || networkSeed > 2 ** 31 - 1) throw badField('networkSeed', `${String(networkSeed)} is not a whole number from 0 to 2147483647`);
  const siteKey = raw.siteKey ?? 'host';
  if (siteKey !== 'host' && siteKey !== 'domain') throw badField('siteKey', `"${String(siteKey)}" is not host or domain`);
  let historyShare: number | undefined;
  if (raw.historyShare !== undefined) {
    const x = raw.historyShare;
    if (typeof x !== 'number' || !(x > 0 && x <= 1)) throw badField('historyShare', `${String(x)} is not a share in (0, 1]`);
    historyShare = x;
  }
  let historyCrawl: string | undefined;
  if (raw.historyCrawl !== undefined) {
    if (typeof raw.historyCrawl !== 'string' || !SOURCE_ID.test(raw.historyCrawl) || raw.historyCrawl.includes('..')) throw badField('historyCrawl', `"${String(raw.historyCrawl)}" is not a crawl name`);
    if (!policies.some((p) => p.startsWith('historical-'))) throw badField('historyCrawl', 'only the historical policies use an earlier crawl');
    historyCrawl = raw.historyCrawl;
  }
  let seeds: string[] | undefined;
  if (raw.seeds !== undefined) {
    if (!Array.isArray(raw.seeds) || raw.seeds.length > MAX_SEEDS) throw badField('seeds', `a list of at most ${MAX_SEEDS} start URLs`);
    seeds = (raw.seeds as unknown[]).map((u) => {
      if (typeof u !== 'string' || !/^https?:\/\/[^\s/?#]+/i.test(u.trim())) throw badField('seeds', `"${String(u)}" is not an http(s) URL`);
      return u.trim();
    });
    if (seeds.length === 0) seeds = undefined;
  }

  const out: CheckedSimulationRequest = {
    source: { kind, id },
    policies: [...new Set(policies)],
    r: raw.r === undefined ? 256 : whole(raw.r, 'r', 'r'),
    w,
    c: raw.c === undefined ? 1 : whole(raw.c, 'c', 'c'),
    bandwidth,
    latency: bool(raw.latency, 'latency', true),
    networkSeed,
    batch: orNull(raw.batch, 'batch', 'batch'),
    maxPages: orNull(raw.maxPages, 'maxPages', 'maxPages'),
    maxPagesPerSite: orNull(raw.maxPagesPerSite, 'maxPagesPerSite', 'maxPagesPerSite'),
    siteKey,
    perIp: bool(raw.perIp, 'perIp', false),
  };
  if (topic !== undefined) out.topic = topic;
  if (historyShare !== undefined) out.historyShare = historyShare;
  if (historyCrawl !== undefined) out.historyCrawl = historyCrawl;
  if (seeds !== undefined) out.seeds = seeds;
  return out;
}
