/**
 * New crawl's form as the engine's create request: numbers are typed as text and checked here
 * against the engine's own limits, so "" or "abc" is an error at its field, never 0; and a
 * request field the engine refuses is named in the form's words (its label).
 */
import type { CreateCrawlRequest, PolicyDescription, PolicyParam } from '../../core/api/contract.js';
import { SETTING_LIMITS, SHORT_W_MS, type NumericLimit } from '../../core/config/limits.js';
import type { AgainForm } from './crawl-again.js';
import { formatNumber } from './format.js';

/** New crawl's fields, as typed (a policy's parameters are held beside them, by name). */
export interface NewCrawlForm extends Omit<AgainForm, 'params'> {
  /** A seed file too long to show in the box (over one message: it goes up in chunks): its name and size; its text is seedText. */
  seedFile: { name: string; bytes: number } | null;
  allowShortW: boolean;
  startNow: boolean;
}

/** The form as it opens: a crawl of the demo web with its quick politeness, started at once. */
export function blankForm(): NewCrawlForm {
  return {
    name: '',
    demo: true,
    /** '2': the same demo web months later (some pages gone, new ones, changed links). */
    revision: '1',
    /** The demo web of the crawl crawled again (its size and latency), so the same web is served. */
    demoSpec: null,
    seedText: '',
    seedFile: null,
    policy: 'breadth-first',
    w: '0.05',
    c: '10',
    r: '64',
    batch: '',
    maxPages: '',
    maxDepth: '15',
    maxPagesPerSite: '25000',
    userAgent: '',
    historyCrawl: '',
    allowShortW: false,
    storeContent: false,
    contentBudget: '10',
    sitemaps: false,
    /** How a site whose certificate fails is treated (--tls): record (the default) or verify. */
    tls: 'record',
    /** A CA file to trust besides Node's and the system's (--ca), read as text. */
    caFile: null,
    startNow: true,
  };
}

const LABELS: Record<string, string> = {
  w: 'w (wait between connections)',
  c: 'c (pages per connection)',
  r: 'r (simultaneous connections)',
  batch: 'K (batch size)',
  maxPages: 'Max pages',
  maxDepth: 'Max depth',
  maxPagesPerSite: 'Max pages per site',
  contentBudget: 'Content budget',
};

/** Request fields in the form's words: its labels (a policy parameter by its own label). */
const FIELD_NAMES: Record<string, string> = {
  ...LABELS,
  name: 'Name',
  seedText: 'Seeds',
  seedUploadId: 'Seeds',
  demoWeb: 'Demo web',
  policy: 'Ordering policy',
  historyCrawl: 'History crawl',
  userAgent: 'User agent',
  allowShortW: 'I know: a wait under 1 s on real servers',
  storeContent: 'Keep the pages’ content',
  sitemaps: 'Read sitemaps',
  tls: 'Certificates',
  caPem: 'Also trust this CA',
};

/** A request field ('w', 'policyParams.alpha') by its label in the form. */
export function fieldName(field: string, policy: PolicyDescription | null): string {
  const param = /^policyParams\.(.+)$/.exec(field)?.[1];
  if (param !== undefined) return policy?.params.find((p) => p.name === param)?.label ?? param;
  return FIELD_NAMES[field] ?? FIELD_NAMES[field.split('.')[0]!] ?? field;
}

/** Real seeds and a w under 1 s: the engine refuses it for hosts outside this machine unless confirmed. */
export function isShortW(form: NewCrawlForm): boolean {
  const seconds = Number(form.w.trim());
  return !form.demo && form.w.trim() !== '' && Number.isFinite(seconds) && seconds * 1000 < SHORT_W_MS;
}

/** Where the checks below put what is wrong: field name to the sentence shown at it. */
type FieldErrors = Record<string, string>;

/**
 * A typed number checked against the engine's limits (in the field's unit: `scale` units of
 * the setting per unit typed, e.g. 1000 ms per second for w). Empty: null when optional.
 */
function numberField(errors: FieldErrors, name: string, raw: string, limit: NumericLimit, opts: { scale?: number; optional?: boolean; unit?: string } = {}): number | null | undefined {
  const scale = opts.scale ?? 1;
  const t = raw.trim();
  const range = `from ${formatNumber(limit.min / scale, 3)} to ${formatNumber(limit.max / scale, 3)}${opts.unit ? ` ${opts.unit}` : ''}`;
  const what = limit.integer && scale === 1 ? 'a whole number' : 'a number';
  if (t === '') {
    if (opts.optional) return null;
    errors[name] = `${LABELS[name] ?? name} is needed: ${what} ${range}.`;
    return undefined;
  }
  const n = Number(t);
  const v = Math.round(n * scale * 1000) / 1000;
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) || !Number.isFinite(n) || v < limit.min || v > limit.max || (limit.integer && !Number.isInteger(v))) {
    errors[name] = `${LABELS[name] ?? name} must be ${what} ${range} (not “${t}”).`;
    return undefined;
  }
  return limit.integer ? Math.round(v) : v;
}

function paramValue(errors: FieldErrors, p: PolicyParam, typed: string | undefined): unknown {
  const raw = (typed ?? '').trim();
  if (raw === '') return undefined;
  if (p.type === 'string') return raw;
  if (p.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') errors[`policyParams.${p.name}`] = `${p.label ?? p.name} must be true or false.`;
    return raw === 'true';
  }
  const n = Number(raw);
  if (!Number.isFinite(n) || (p.type === 'integer' && !Number.isInteger(n))) {
    errors[`policyParams.${p.name}`] = `${p.label ?? p.name} must be ${p.type === 'integer' ? 'a whole number' : 'a number'} (not “${raw}”).`;
    return undefined;
  }
  return n;
}

/** The politeness and limits typed, as the request's numbers. */
function numbersOf(form: NewCrawlForm, errors: FieldErrors): CreateCrawlRequest {
  const L = SETTING_LIMITS;
  return {
    name: form.name.trim() || undefined,
    policy: form.policy,
    w: numberField(errors, 'w', form.w, L.w, { scale: 1000, unit: 's' }) ?? undefined,
    c: numberField(errors, 'c', form.c, L.c) ?? undefined,
    r: numberField(errors, 'r', form.r, L.r) ?? undefined,
    batch: numberField(errors, 'batch', form.batch, L.batch, { optional: true }),
    maxPages: numberField(errors, 'maxPages', form.maxPages, L.maxPages, { optional: true }),
    maxDepth: numberField(errors, 'maxDepth', form.maxDepth, L.maxDepth) ?? undefined,
    maxPagesPerSite: numberField(errors, 'maxPagesPerSite', form.maxPagesPerSite, L.maxPagesPerSite) ?? undefined,
    userAgent: form.userAgent.trim() || undefined,
  };
}

/** What the crawl reads (the demo web or the seeds), how it treats certificates, and what it keeps. */
function sourceAndOptions(form: NewCrawlForm, errors: FieldErrors, req: CreateCrawlRequest): void {
  if (form.demo) req.demoWeb = form.demoSpec || form.revision === '2' ? { ...form.demoSpec, revision: form.revision === '2' ? 2 : 1 } : true;
  else {
    req.seedText = form.seedText;
    if (isShortW(form) && form.allowShortW) req.allowShortW = true;
  }
  if (form.sitemaps) req.sitemaps = true;
  if (form.tls !== 'record') req.tls = form.tls;
  if (form.caFile) req.caPem = form.caFile.text;
  if (form.storeContent) {
    req.storeContent = true;
    const gib = numberField(errors, 'contentBudget', form.contentBudget, { ...SETTING_LIMITS.contentBudget, integer: false }, { scale: 1024 ** 3, unit: 'GiB' });
    if (gib !== undefined && gib !== null) req.contentBudget = Math.round(gib);
  }
}

/**
 * The request of the form, or null with every problem in `errors` (emptied first) at its field.
 * `params`: the policy's parameters as typed; `policyParams`: those the form shows (the
 * history is picked in its own list, and sent when the policy `takesHistory`).
 */
export function requestOfForm(form: NewCrawlForm, params: Record<string, string>, policy: { policyParams: readonly PolicyParam[]; takesHistory: boolean }, errors: FieldErrors): CreateCrawlRequest | null {
  for (const k of Object.keys(errors)) delete errors[k];
  const req = numbersOf(form, errors);
  const pp: Record<string, unknown> = {};
  for (const p of policy.policyParams) {
    const v = paramValue(errors, p, params[p.name]);
    if (v !== undefined) pp[p.name] = v;
  }
  req.policyParams = pp;
  if (policy.takesHistory && form.historyCrawl) req.historyCrawl = form.historyCrawl;
  sourceAndOptions(form, errors, req);
  return Object.keys(errors).length === 0 ? req : null;
}
