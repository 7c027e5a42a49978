/**
 * New crawl's form as the engine's create request: numbers are typed as text, and the request
 * is checked here with the engine's own schema before anything is sent, so "" or "abc" is an
 * error at its field, never 0, in the words the API and the CLI use for the same value; and a
 * request field the engine refuses is named in the form's words (its label).
 */
import type { CreateCrawlRequest, PolicyDescription, PolicyParam } from '../../core/api/contract.js';
import { CreateCrawlRequestSchema } from '../../core/api/create-request-schema.js';
import { API_LIMITS } from '../../core/api/limits.js';
import { SHORT_W_MS } from '../../core/config/limits.js';
import { fieldErrors } from '../../core/config/request-words.js';
import type { AgainForm } from './crawl-again.js';

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
 * The number fields, typed as text: how many of the request's units one typed unit is (w in
 * seconds, the content budget in GiB) and whether empty means none (no batches, no page limit).
 */
const NUMBER_FIELDS = {
  w: { scale: 1000 },
  c: {},
  r: {},
  batch: { optional: true },
  maxPages: { optional: true },
  maxDepth: {},
  maxPagesPerSite: {},
  contentBudget: { scale: 1024 ** 3 },
} satisfies Record<string, { scale?: number; optional?: boolean }>;
type NumberField = keyof typeof NUMBER_FIELDS;

/**
 * A typed number as the request's: empty is null where that means none, and NaN where a number
 * is needed, as is text that is no plain number ("abc", "1e", "-"), so the request's schema
 * refuses it in its own words. A scaled value is rounded off its float noise (0.05 s is 50 ms),
 * the budget to whole bytes.
 */
function typedNumber(name: NumberField, text: string): number | null {
  const { scale = 1, optional = false } = NUMBER_FIELDS[name] as { scale?: number; optional?: boolean };
  const t = text.trim();
  if (t === '') return optional ? null : NaN;
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return NaN;
  const v = Number(t) * scale;
  if (scale === 1) return v;
  return name === 'contentBudget' ? Math.round(v) : Math.round(v * 1000) / 1000;
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

/** The politeness and limits typed, as the request's numbers (checked with the rest, below). */
function numbersOf(form: NewCrawlForm): CreateCrawlRequest {
  return {
    name: form.name.trim() || undefined,
    policy: form.policy,
    w: typedNumber('w', form.w) ?? undefined,
    c: typedNumber('c', form.c) ?? undefined,
    r: typedNumber('r', form.r) ?? undefined,
    batch: typedNumber('batch', form.batch),
    maxPages: typedNumber('maxPages', form.maxPages),
    maxDepth: typedNumber('maxDepth', form.maxDepth) ?? undefined,
    maxPagesPerSite: typedNumber('maxPagesPerSite', form.maxPagesPerSite) ?? undefined,
    userAgent: form.userAgent.trim() || undefined,
  };
}

/** What the crawl reads (the demo web or the seeds), how it treats certificates, and what it keeps. */
function sourceAndOptions(form: NewCrawlForm, req: CreateCrawlRequest): void {
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
    req.contentBudget = typedNumber('contentBudget', form.contentBudget) ?? undefined;
  }
}

/**
 * The request checked with the engine's own schema (core/api/create-request-schema.ts, the one
 * the API checks it with and whose number fields `crawlbench crawl` checks its flags with): each
 * refusal at its field, after the field's label, in the engine's words (a number with what was
 * typed; another field as the engine's own refusal of it is shown).
 * Seed text too long for one message is checked as the upload it goes up as (its own limit).
 */
function schemaErrors(form: NewCrawlForm, req: CreateCrawlRequest, params: readonly PolicyParam[], errors: FieldErrors): void {
  const sent = req.seedText !== undefined && req.seedText.length > API_LIMITS.seedTextChars ? { ...req, seedText: undefined } : req;
  for (const [field, problem] of Object.entries(fieldErrors(CreateCrawlRequestSchema, sent, 'a new crawl'))) {
    if (errors[field] !== undefined) continue;
    const param = /^policyParams\.(.+)$/.exec(field)?.[1];
    const label = param === undefined ? fieldName(field, null) : (params.find((p) => p.name === param)?.label ?? param);
    if (!(field in NUMBER_FIELDS)) {
      // As the engine's refusal of it would be shown (lib/user-error.ts: atField).
      errors[field] = `${label}: ${problem}`;
      continue;
    }
    const typed = form[field as NumberField].trim();
    errors[field] = `${label} ${problem}${typed === '' ? '' : ` (not “${typed}”)`}.`;
  }
}

/**
 * The request of the form, or null with every problem in `errors` (emptied first) at its field.
 * `params`: the policy's parameters as typed; `policyParams`: those the form shows (the
 * history is picked in its own list, and sent when the policy `takesHistory`).
 */
export function requestOfForm(form: NewCrawlForm, params: Record<string, string>, policy: { policyParams: readonly PolicyParam[]; takesHistory: boolean }, errors: FieldErrors): CreateCrawlRequest | null {
  for (const k of Object.keys(errors)) delete errors[k];
  const req = numbersOf(form);
  const pp: Record<string, unknown> = {};
  for (const p of policy.policyParams) {
    const v = paramValue(errors, p, params[p.name]);
    if (v !== undefined) pp[p.name] = v;
  }
  req.policyParams = pp;
  if (policy.takesHistory && form.historyCrawl) req.historyCrawl = form.historyCrawl;
  sourceAndOptions(form, req);
  schemaErrors(form, req, policy.policyParams, errors);
  return Object.keys(errors).length === 0 ? req : null;
}
