/**
 * The importance measure of the Results and Simulate forms (Cho, Garcia-Molina and Page,
 * "Efficient crawling through URL ordering", §2; docs/design.md section 4.11) in a researcher's
 * words: the fields as typed, the request fields they send (only those the chosen measure takes;
 * blank = the paper's default), checked by the engine's own schema (ranking/request-schema.ts),
 * and a report's measure and hot pages said in words.
 */
import type { EvaluationDto, IrScale, LocationKind, MeasureInfo, MeasureName, MeasureRequest } from '../../core/api/contract.js';
import { MEASURE_SHORT } from '../../core/ranking/request-schema.js';
import { formatNumber } from './format.js';

/** The measure's fields as typed (text boxes hold text). */
export interface MeasureForm {
  measure: MeasureName;
  /** Blank: the paper's G where it gives one, the topic rule for IS, else the top 10%'s value. */
  hotThreshold: string;
  query: string;
  /** Blank: 0.9 for IR, 0.85 for PageRank. */
  damping: string;
  scale: IrScale;
  location: LocationKind;
}

export function blankMeasureForm(): MeasureForm {
  return { measure: 'pagerank', hotThreshold: '', query: '', damping: '', scale: 'n', location: 'slashes' };
}

/** The request's fields that choose the measure (form fields the engine checks by the same names). */
export const MEASURE_FIELD_NAMES = ['measure', 'hotThreshold', 'query', 'damping', 'scale', 'location'] as const;

export const MEASURE_CHOICES: ReadonlyArray<{ value: MeasureName; label: string; title: string }> = [
  { value: 'pagerank', label: 'PageRank (d = 0.85, normalised to sum 1)', title: "crawlbench's PageRank of the crawl's whole graph (the stored run, else computed now)" },
  { value: 'backlinks', label: 'IB: backlink count', title: 'Cho et al.’s IB: the number of distinct pages linking to a page' },
  { value: 'ir', label: 'IR: PageRank with d = 0.9, summing to N (as Cho et al.)', title: 'Cho et al.’s IR: PageRank whose values sum to the number of pages N, so that the average page has 1' },
  {
    value: 'similarity',
    label: 'IS: similarity to a query',
    title: 'Cho et al.’s IS: the tf-idf similarity of a page to the query words, over the stored text of a crawl made with “Keep the pages’ content”, else over the page titles (the result says which)',
  },
  { value: 'location', label: 'IL: the location metric', title: 'Cho et al.’s IL: a value of the URL alone (fewer slashes in the path, a .com host, or “home” in the URL)' },
];

export const LOCATION_CHOICES: ReadonlyArray<{ value: LocationKind; label: string }> = [
  { value: 'slashes', label: 'fewer slashes in the path (the value is minus their number)' },
  { value: 'com', label: 'a .com host (1, else 0)' },
  { value: 'home', label: '“home” in the URL (1, else 0)' },
];

/** What a blank hot threshold means for the measure chosen. */
export function hotDefault(f: MeasureForm): string {
  const damping = f.damping.trim() === '' ? 0.9 : Number(f.damping);
  if (f.measure === 'backlinks') return '100 backlinks, as Cho et al.';
  if (f.measure === 'ir' && damping === 0.9 && f.scale === 'n') return '13, as Cho et al.';
  if (f.measure === 'similarity') return 'a query word in the title or more than ten times in the body';
  return 'the value at the top 10 %';
}

/** A number typed, or the text itself (the engine's schema then refuses it at its field). */
const typed = (s: string): number | undefined => {
  const t = s.trim();
  if (t === '') return undefined;
  return Number.isFinite(Number(t)) ? Number(t) : (t as unknown as number);
};

/** The request's measure fields: only those the chosen measure takes (a query only for IS, a damping for PageRank and IR...). */
export function measureFieldsOf(f: MeasureForm): MeasureRequest {
  const out: MeasureRequest = { measure: f.measure };
  const hot = typed(f.hotThreshold);
  if (hot !== undefined) out.hotThreshold = hot;
  if (f.measure === 'similarity') out.query = f.query;
  const damping = typed(f.damping);
  if ((f.measure === 'pagerank' || f.measure === 'ir') && damping !== undefined) out.damping = damping;
  if (f.measure === 'ir') out.scale = f.scale;
  if (f.measure === 'location') out.location = f.location;
  return out;
}

/** "IB (backlinks)". */
export const measureName = (name: MeasureName | undefined): string => MEASURE_SHORT[name ?? 'pagerank'];

/** "IB (backlinks): distinct pages linking to the page"; IS says the query and which texts it read. */
export function measureText(m: MeasureInfo): string {
  return `${MEASURE_SHORT[m.name]}: ${m.scale}${m.damping !== null ? `, d = ${m.damping}` : ''}${m.query !== null ? `; query “${m.query}”` : ''}`;
}

/** How the hot pages of Crawl & Stop with Threshold were judged, in words. */
export function hotRule(m: Pick<MeasureInfo, 'name' | 'hot'>, g: number): string {
  if (m.hot === 'topic') return 'a query word in the title or more than ten times in the body';
  return `${m.name === 'pagerank' ? 'PageRank share' : MEASURE_SHORT[m.name]} at least ${formatNumber(g, 6)}`;
}

const TRUTH: Record<EvaluationDto['truth'], string> = {
  stored: 'the PageRank stored with the crawl',
  computed: 'PageRank computed now over every known page (none is stored, or the crawl has changed since)',
  oracle: "an oracle crawl's PageRank",
};

/** What an evaluation was rated against, in words: PageRank and where it came from, or the measure and its scale. */
export function ratedAgainst(e: EvaluationDto): string {
  if ((e.measure?.name ?? 'pagerank') === 'pagerank' && e.damping === 0.85) return `${TRUTH[e.truth]} (damping ${e.damping})`;
  return `${e.measure ? measureText(e.measure) : 'PageRank'}${e.truth === 'oracle' ? ", the oracle crawl's" : ", computed now over this crawl's pages"}`;
}
