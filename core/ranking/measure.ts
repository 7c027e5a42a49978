import { badOption } from '../errors.js';
import { CrawlReader, withCrawlReader } from '../store/crawl-reader.js';
import { loadCrawlGraph } from './crawl-graph.js';
import type { MeasureInfo } from './report.js';
import { backlinkCounts, CHO_DAMPING, irValues, locationScore, type IrScale, type LocationKind, type MeasureName } from './importance.js';
import { pageTexts, textSource, words, type PageText } from './page-text.js';
import { DEFAULT_DAMPING } from './pagerank.js';
import { similarityScores, topicHotByContent } from './similarity.js';

export type { MeasureInfo } from './report.js';

/** Which importance a fetch order is measured against (docs/design.md section 4.11). */
export interface MeasureOptions {
  /** Default 'pagerank' (crawlbench's normalised PageRank, section 4.1). */
  measure?: MeasureName;
  /** Damping: IR's default is 0.9 (Cho et al. §6), PageRank's section 4.1's 0.85. */
  damping?: number;
  /** IR's scale: 'n' sums to N as Cho et al. (default), '1' to 1. */
  scale?: IrScale;
  /** IS's query words (required by 'similarity'). */
  query?: string;
  /** IL's kind (default 'slashes'). */
  location?: LocationKind;
  /**
   * Similarity: a page hot by the topic rule is hot only with at least this many backlinks in
   * the crawl's graph (Cho et al. §7, Graph 7: on the topic and five or more backlinks).
   */
  hotBacklinks?: number;
}

/** A measure's values by page id, what they are, and for similarity the pages hot by Cho's topic rule. */
export interface MeasuredPages {
  byId: Map<number, number>;
  info: MeasureInfo;
  /** Similarity: pages with a query word in the title or more than ten times in the body. */
  hot: Set<number> | null;
}

/** Checks the options a measure needs, naming the flag a bad one came from. */
export function checkMeasure(o: MeasureOptions): void {
  if (o.measure === 'similarity' && (o.query === undefined || words(o.query).length === 0)) {
    throw badOption('--query', 'required by --measure similarity (the query words)');
  }
  if (o.hotBacklinks !== undefined && o.measure !== 'similarity') throw badOption('--hot-backlinks', 'only with --measure similarity (the topic rule\'s hot pages)');
  if (o.damping !== undefined && !(o.damping >= 0 && o.damping <= 1)) throw badOption('--damping', `must be in [0, 1], got ${o.damping}`);
}

/**
 * A measure over every page of a crawl, by page id: PageRank, IB and IR over the crawl's
 * complete graph (every known page a node), IS over the fetched pages' texts (pages not
 * fetched have none and get 0), IL over every page's URL.
 */
export function measureById(reader: CrawlReader, o: MeasureOptions): MeasuredPages {
  checkMeasure(o);
  const name = o.measure ?? 'pagerank';
  const info: MeasureInfo = { name, scale: '', damping: null, text: null, query: null, location: null, hot: 'threshold' };
  if (name === 'similarity') return similarityOf(reader, o.query!, info, o.hotBacklinks);
  const byId = new Map<number, number>();
  if (name === 'location') {
    const kind = o.location ?? 'slashes';
    for (const p of reader.pages(['url'])) byId.set(p.id, locationScore(p.url, kind));
    info.location = kind;
    info.scale = kind === 'slashes' ? 'minus the slashes in the path' : kind === 'com' ? '1 for a .com host, else 0' : '1 for a URL containing "home", else 0';
    return { byId, info, hot: null };
  }
  const cg = loadCrawlGraph(reader);
  const n = cg.graph.n;
  const damping = o.damping ?? (name === 'pagerank' ? DEFAULT_DAMPING : CHO_DAMPING);
  const scale = name === 'pagerank' ? '1' : (o.scale ?? 'n');
  const values = name === 'backlinks' ? backlinkCounts(cg.graph) : irValues(cg.graph, { damping, scale });
  for (let v = 0; v < n; v++) byId.set(cg.pageIds[v]!, values[v]!);
  if (name === 'backlinks') info.scale = 'distinct pages linking to the page';
  else {
    info.damping = damping;
    info.scale = scale === 'n' ? `PageRank summing to N = ${n} (mean 1)` : 'PageRank summing to 1';
  }
  return { byId, info, hot: null };
}

/** IS over the crawl's texts, and the pages hot by the topic rule, in one pass over the texts. */
function similarityOf(reader: CrawlReader, query: string, info: MeasureInfo, hotBacklinks: number | undefined): MeasuredPages {
  const source = textSource(reader);
  const queryWords = [...new Set(words(query))];
  const hot = new Set<number>();
  const texts = function* (): Generator<{ id: number } & PageText> {
    for (const doc of pageTexts(reader, source)) {
      if (queryWords.some((w) => topicHotByContent(doc, w))) hot.add(doc.id);
      yield doc;
    }
  };
  const byId = similarityScores(texts(), query);
  if (hotBacklinks !== undefined) withBacklinks(reader, hot, hotBacklinks);
  Object.assign(info, {
    hotBacklinks: hotBacklinks ?? null,
    text: source,
    query,
    hot: 'topic',
    scale: `tf-idf inner product with the query, over ${source === 'content' ? 'the stored text' : 'the titles (the crawl stored no content)'}`,
  });
  return { byId, info, hot };
}

/** Keeps the hot pages with at least `min` backlinks in the crawl's complete graph. */
function withBacklinks(reader: CrawlReader, hot: Set<number>, min: number): void {
  const cg = loadCrawlGraph(reader);
  const counts = backlinkCounts(cg.graph);
  const enough = new Set<number>();
  for (let v = 0; v < cg.graph.n; v++) if (counts[v]! >= min) enough.add(cg.pageIds[v]!);
  for (const id of [...hot]) if (!enough.has(id)) hot.delete(id);
}

/** The same measure over another crawl (an oracle), by canonical URL. */
export function measureByUrl(dbPath: string, o: MeasureOptions): { byUrl: Map<string, number>; hotUrls: Set<string> | null; info: MeasureInfo } {
  return withCrawlReader(dbPath, (reader) => {
    const { byId, info, hot } = measureById(reader, o);
    const byUrl = new Map<string, number>();
    const hotUrls = hot ? new Set<string>() : null;
    for (const p of reader.pages(['url'])) {
      byUrl.set(p.url, byId.get(p.id) ?? 0);
      if (hot?.has(p.id)) hotUrls!.add(p.url);
    }
    return { byUrl, hotUrls, info };
  });
}
