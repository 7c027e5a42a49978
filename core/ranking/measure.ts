import { badOption } from '../errors.js';
import { CrawlReader, withCrawlReader } from '../store/crawl-reader.js';
import { loadCrawlGraph } from './crawl-graph.js';
import { backlinkCounts, CHO_DAMPING, irValues, locationScore, type IrScale, type LocationKind, type MeasureName } from './importance.js';
import { pageTexts, textSource, type TextSource } from './page-text.js';
import { similarityScores } from './similarity.js';

/** Which importance a fetch order is measured against (docs/design.md section 4.8). */
export interface MeasureOptions {
  /** Default 'pagerank' (crawlbench's normalised PageRank, section 4.1). */
  measure?: MeasureName;
  /** IR's damping (default 0.9, Cho et al. §6); PageRank's is section 4.1's. */
  damping?: number;
  /** IR's scale: 'n' sums to N as Cho et al. (default), '1' to 1. */
  scale?: IrScale;
  /** IS's query words (required by 'similarity'). */
  query?: string;
  /** IL's kind (default 'slashes'). */
  location?: LocationKind;
}

/** What the values of a measure are, as a report states it. */
export interface MeasureInfo {
  name: MeasureName;
  /** In words: what a value means and what the values sum to. */
  scale: string;
  damping: number | null;
  /** Similarity: the texts read (stored bodies, or titles when the crawl stored no content). */
  text: TextSource | null;
  query: string | null;
  location: LocationKind | null;
}

/** Checks the options a measure needs, naming the flag a bad one came from. */
export function checkMeasure(o: MeasureOptions): void {
  if (o.measure === 'similarity' && (o.query === undefined || o.query.trim() === '')) {
    throw badOption('--query', 'required by --measure similarity (the query words)');
  }
  if (o.damping !== undefined && !(o.damping >= 0 && o.damping <= 1)) throw badOption('--damping', `must be in [0, 1], got ${o.damping}`);
}

/**
 * A measure other than PageRank over every page of a crawl, by page id: IB and IR over the
 * crawl's complete graph (every known page a node), IS over the fetched pages' texts (pages
 * not fetched have no text and get 0), IL over every page's URL.
 */
export function measureById(reader: CrawlReader, o: MeasureOptions): { byId: Map<number, number>; info: MeasureInfo } {
  checkMeasure(o);
  const name = o.measure ?? 'pagerank';
  const info: MeasureInfo = { name, scale: '', damping: null, text: null, query: null, location: null };
  const byId = new Map<number, number>();
  if (name === 'backlinks' || name === 'ir' || name === 'pagerank') {
    const cg = loadCrawlGraph(reader);
    const n = cg.graph.n;
    const damping = o.damping ?? CHO_DAMPING;
    const scale = name === 'pagerank' ? '1' : (o.scale ?? 'n');
    const values = name === 'backlinks' ? backlinkCounts(cg.graph) : irValues(cg.graph, { damping, scale });
    for (let v = 0; v < n; v++) byId.set(cg.pageIds[v]!, values[v]!);
    if (name === 'backlinks') info.scale = 'distinct pages linking to the page';
    else {
      info.damping = damping;
      info.scale = scale === 'n' ? `PageRank summing to N = ${n} (mean 1)` : 'PageRank summing to 1';
    }
  } else if (name === 'similarity') {
    const source = textSource(reader);
    for (const [id, s] of similarityScores(pageTexts(reader, source), o.query!)) byId.set(id, s);
    info.text = source;
    info.query = o.query!;
    info.scale = `tf-idf inner product with the query, over ${source === 'content' ? 'the stored text' : 'the titles'}`;
  } else {
    const kind = o.location ?? 'slashes';
    for (const p of reader.pages(['url'])) byId.set(p.id, locationScore(p.url, kind));
    info.location = kind;
    info.scale = kind === 'slashes' ? 'minus the slashes in the path' : kind === 'com' ? '1 for a .com host, else 0' : '1 for a URL containing "home", else 0';
  }
  return { byId, info };
}

/** The same measure over another crawl (an oracle), by canonical URL. */
export function measureByUrl(dbPath: string, o: MeasureOptions): { byUrl: Map<string, number>; info: MeasureInfo } {
  return withCrawlReader(dbPath, (reader) => {
    const { byId, info } = measureById(reader, o);
    const byUrl = new Map<string, number>();
    for (const p of reader.pages(['url'])) byUrl.set(p.url, byId.get(p.id) ?? 0);
    return { byUrl, info };
  });
}
