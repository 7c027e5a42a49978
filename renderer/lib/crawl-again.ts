/**
 * "Crawl again": New crawl's form filled from an earlier crawl's settings, for the workbench's
 * scenario of a domain crawled twice months apart. The same seeds, scope, politeness and
 * limits; the earlier crawl picked as history with a policy guided by its PageRank; and for a
 * demo crawl the same demo web months later (revision 2), served on the same port, so that
 * history and comparison match its URLs.
 */
import type { CrawlSettingsDto, PolicyDescription } from '../../core/api/contract.js';

/** The policy "Crawl again" preselects: new pages ranked by their parent's PageRank in history. */
export const AGAIN_POLICY = 'historical-pagerank-parent';

export interface DemoSpecForm {
  sites: number;
  pages: number;
  latencyMs: number;
}

/** New crawl's fields, as typed text (the form checks numbers when Create is pressed). */
export interface AgainForm {
  name: string;
  demo: boolean;
  revision: '1' | '2';
  /** The demo web of the earlier crawl (its size and latency), kept so the same web is served. */
  demoSpec: DemoSpecForm | null;
  seedText: string;
  policy: string;
  params: Record<string, string>;
  historyCrawl: string;
  w: string;
  c: string;
  r: string;
  batch: string;
  maxPages: string;
  maxDepth: string;
  maxPagesPerSite: string;
  userAgent: string;
  storeContent: boolean;
  contentBudget: string;
  sitemaps: boolean;
  tls: 'verify' | 'record';
  /** The CA certificates the earlier crawl also trusted, as New crawl holds an uploaded file. */
  caFile: { name: string; text: string } | null;
}

const text = (n: number | null) => (n === null ? '' : String(n));

/** A free name for the new crawl: NAME-again, NAME-again-2, ... */
export function againName(id: string, taken: ReadonlySet<string>): string {
  const base = `${id.slice(0, 90)}-again`;
  if (!taken.has(base)) return base;
  let i = 2;
  while (taken.has(`${base}-${i}`)) i++;
  return `${base}-${i}`;
}

export function againForm(s: CrawlSettingsDto, policies: readonly PolicyDescription[], taken: ReadonlySet<string>): AgainForm {
  const guided = policies.find((p) => p.name === AGAIN_POLICY);
  const policy = guided ?? policies.find((p) => p.name === s.policy);
  // The earlier crawl's parameters that the chosen policy also takes (a different policy's mean nothing to it).
  const names = new Set((policy?.params ?? []).map((p) => p.name).filter((n) => n !== 'history'));
  const params = Object.fromEntries(Object.entries(s.policyParams).filter(([k]) => names.has(k)).map(([k, v]) => [k, String(v)]));
  return {
    name: againName(s.id, taken),
    demo: s.demoWeb !== null,
    revision: s.demoWeb ? '2' : '1',
    demoSpec: s.demoWeb ? { sites: s.demoWeb.sites, pages: s.demoWeb.pages, latencyMs: s.demoWeb.latencyMs } : null,
    seedText: s.seedText,
    policy: policy?.name ?? s.policy,
    params,
    // The history is the earlier crawl itself, when the policy takes one; else its own history, if any.
    historyCrawl: guided ? s.id : (s.historyCrawl ?? ''),
    w: String(s.w / 1000),
    c: String(s.c),
    r: String(s.r),
    batch: text(s.batch),
    maxPages: text(s.maxPages),
    maxDepth: String(s.maxDepth),
    maxPagesPerSite: String(s.maxPagesPerSite),
    userAgent: s.userAgent,
    storeContent: s.storeContent,
    contentBudget: String(Math.round((s.contentBudget / 1024 ** 3) * 1000) / 1000),
    sitemaps: s.sitemaps ?? false,
    tls: s.tls ?? 'record',
    caFile: s.caPem ? { name: `the CA certificates of ${s.id}`, text: s.caPem } : null,
  };
}
