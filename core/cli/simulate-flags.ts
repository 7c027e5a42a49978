/**
 * `crawlbench simulate`'s flags as the simulation schema's input (simulator/request-schema.ts,
 * the one the workbench's form and the API check with): the flags' own syntax is read here
 * (durations, sizes, comma lists, on/off), every value is then checked by the schema, and a
 * refusal names the field's flag with the schema's words, the same words the form shows.
 */
import { checkWith } from '../config/request-words.js';
import { decimal, parseDuration, parseSize } from '../config/units.js';
import { badOption } from '../errors.js';
import { listPolicies } from '../policies/registry.js';
import { flagOfField, typedNumber } from './eval-measure-flags.js';
import type { MeasureRequest } from '../ranking/report.js';
import { withoutUndefined } from '../ranking/request-schema.js';
import { simulationOptionsSchema } from '../simulator/request-schema.js';

/** The schema's fields by the flag that gives each (the rest: its name in kebab case). */
export const SIMULATE_FLAG_OF: Record<string, string> = { policies: '--policy', maxPagesPerSite: '--max-pages-per-site' };

export function simulateFlagOf(field: string): string {
  return SIMULATE_FLAG_OF[field] ?? flagOfField(field);
}

/** The flags simulate reads, as given (strings; lists already split at commas). */
export interface SimulateFlagValues {
  policies: string[];
  r: string[];
  c: string[];
  bandwidth: string[];
  w?: string;
  batch?: string;
  topic?: string;
  topicOrder?: string;
  topicRadius?: string;
  historyShare?: string;
  siteKey?: string;
  latency?: string;
  networkSeed?: string;
  maxPages?: string;
  maxPagesPerSite?: string;
  perIp?: boolean;
  /** The start URLs read from --seeds FILE. */
  seeds?: string[];
  /** The measure flags, as eval reads them (eval-measure-flags.ts measureInput). */
  measureFields?: MeasureRequest;
}

const num = typedNumber;

/**
 * The simulation's options from the flags, checked by the schema; several --r, --c or
 * --bandwidth values (a speed-up table) are each checked. Unlimited bandwidth is Infinity.
 */
export function checkedSimulateFlags(f: SimulateFlagValues) {
  const rs = f.r.length > 0 ? f.r.map(decimal) : [undefined];
  const cs = f.c.length > 0 ? f.c.map(decimal) : [undefined];
  const bandwidths = f.bandwidth.length > 0 ? f.bandwidth.map((b) => parseSize('--bandwidth', b)) : [undefined];
  const input = {
    ...f.measureFields,
    policies: f.policies,
    w: f.w === undefined ? undefined : parseDuration('--w', f.w),
    batch: num(f.batch),
    topic: f.topic,
    topicOrder: f.topicOrder,
    topicRadius: num(f.topicRadius),
    historyShare: num(f.historyShare),
    siteKey: f.siteKey,
    latency: f.latency === undefined ? undefined : f.latency === 'on' ? true : f.latency === 'off' ? false : f.latency,
    networkSeed: num(f.networkSeed),
    maxPages: num(f.maxPages),
    maxPagesPerSite: num(f.maxPagesPerSite),
    perIp: f.perIp,
    seeds: f.seeds,
  };
  const schema = simulationOptionsSchema(listPolicies({ simulator: true }).map((p) => p.name));
  const check = (r: number | undefined, c: number | undefined, bandwidth: number | undefined) => {
    const checked = checkWith(schema, withoutUndefined({ ...input, r, c, bandwidth }), 'simulate');
    if (checked.ok) return checked.value;
    const first = checked.refusals[0]!;
    throw badOption(simulateFlagOf(first.field), first.problem);
  };
  const options = check(rs[0], cs[0], bandwidths[0]);
  for (const r of rs) for (const c of cs) for (const b of bandwidths) check(r, c, b);
  return {
    options: { ...options, bandwidth: options.bandwidth ?? Infinity },
    rs: rs.map((r) => r ?? options.r),
    cs: cs.map((c) => c ?? options.c),
    bandwidths: bandwidths.map((b) => b ?? Infinity),
  };
}
