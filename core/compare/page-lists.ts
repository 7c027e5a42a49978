/**
 * The pages behind the counts of added, removed and changed pages, so that a reader can open
 * them: of each kind, the `top` of highest PageRank (B's for added and changed pages, A's for
 * removed ones), ties by page id. Found by one pass over each crawl's page ids with the join's
 * marks, never a list of all the URLs; only the pages listed are looked up by id.
 */
import { IN, type CrawlSide } from './crawl-side.js';
import type { PageJoin } from './page-join.js';
import type { SidePageRank } from './pagerank-diff.js';
import type { ListedPage, PageLists } from './report.js';

/** The `top` of `ids` of highest `value(id)`, ties by id (a sort of the candidates only). */
function highest(ids: Iterable<number>, value: (id: number) => number, top: number): number[] {
  const out = Array.from(ids);
  out.sort((i, j) => value(j) - value(i) || i - j);
  return out.slice(0, top);
}

function* candidates(side: CrawlSide, both: Uint8Array): Generator<number> {
  for (let id = 1; id <= side.maxId; id++) if (side.cls[id] === IN && side.kept[id] === 1 && both[id] === 0) yield id;
}

export function pageLists(a: CrawlSide, b: CrawlSide, join: PageJoin, pa: SidePageRank, pb: SidePageRank, top: number): PageLists {
  const url = (side: CrawlSide, id: number) => side.reader.page(id, ['url'])!.url;
  const added = highest(candidates(b, join.bothB), (id) => pb.values[id]!, top).map((id): ListedPage => ({ url: url(b, id), pageRankA: null, pageRankB: pb.values[id]! }));
  const removed = highest(candidates(a, join.bothA), (id) => pa.values[id]!, top).map((id): ListedPage => ({ url: url(a, id), pageRankA: pa.values[id]!, pageRankB: null }));
  // Changed: pairs (by index) of pages fetched in both whose content hashes differ, as page-join counts them.
  const { pairA, pairB } = join;
  const differ = function* () {
    for (let i = 0; i < pairB.length; i++) {
      const [ha, hb] = [a.hash[pairA[i]!]!, b.hash[pairB[i]!]!];
      if (ha !== 0 && hb !== 0 && ha !== hb) yield i;
    }
  };
  const changed = highest(differ(), (i) => pb.values[pairB[i]!]!, top).map((i): ListedPage => ({ url: url(b, pairB[i]!), pageRankA: pa.values[pairA[i]!]!, pageRankB: pb.values[pairB[i]!]! }));
  return { added, removed, changed };
}
