#!/usr/bin/env bash
# The comparison in docs/results.md (issue 15): the demo web (20,000 pages on 600 sites)
# crawled breadth-first, then its revision 2 ("months later": 55% of URLs survive) crawled
# twice on the same port, breadth-first and historical-pagerank-parent guided by the first
# crawl; `crawlbench compare` of the first crawl with each. About 10 minutes here.
#   bash bench/compare/demo-results.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-bench/out/compare-demo}
rm -rf "$out"; mkdir -p "$out"
cb="node bin/crawlbench.js"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
politeness=(--w 50ms --c 10 --r 64 --scope .demo --resolve '*.demo=127.0.0.1' --robots-retry 5s --quiet --json)

serve() { # revision -> starts the web on $port, writes its seeds
  $cb testweb --web-seed 1 --sites 600 --pages 20000 --latency 20 --revision "$1" --port "$port" --seeds-out "$out/seeds-$1.txt" > "$out/web-$1.json" &
  web=$!
  for _ in $(seq 1 100); do [ -s "$out/web-$1.json" ] && break; sleep 0.2; done
}

serve 1
$cb crawl --db "$out/a.db" --seeds "$out/seeds-1.txt" "${politeness[@]}" > "$out/a.json"
kill $web; wait $web 2>/dev/null || true
serve 2
$cb crawl --db "$out/b-bfs.db" --seeds "$out/seeds-2.txt" "${politeness[@]}" > "$out/b-bfs.json"
$cb crawl --db "$out/b-hist.db" --seeds "$out/seeds-2.txt" --policy historical-pagerank-parent --history "$out/a.db" "${politeness[@]}" > "$out/b-hist.json"
kill $web; wait $web 2>/dev/null || true
for b in b-bfs b-hist; do
  $cb compare "$out/a.db" "$out/$b.db" --json --quiet --out "$out/$b-tables" > "$out/compare-$b.json"
  $cb eval "$out/$b.db" --json > "$out/eval-$b.json"
done
node -e '
const fs = require("fs"); const out = process.argv[1];
for (const b of ["b-bfs", "b-hist"]) {
  const r = JSON.parse(fs.readFileSync(`${out}/compare-${b}.json`, "utf8")); const e = JSON.parse(fs.readFileSync(`${out}/eval-${b}.json`, "utf8"));
  const p = r.pagerank;
  console.log(JSON.stringify({ crawl: b, policy: r.b.policy, pagesA: r.pages.inA, pagesB: r.pages.inB, both: r.pages.both, jaccard: +r.pages.jaccard.toFixed(3),
    pagesShareInA: +p.pagesShareInA.toFixed(3), pageRankShareInA: +p.pageRankShareInA.toFixed(3), tauB: +p.kendallTauB.toFixed(3), rho: +p.spearmanRho.toFixed(3),
    top100: p.topK[0].overlap, top1000: p.topK[1].overlap, newLinkShare: +r.links.newShare.toFixed(3), contentChanged: r.common.contentChanged,
    avgCumulativeB: +p.averageCumulativeB.toFixed(3), evalAvgCumulative: +e.averageCumulativePageRank.toFixed(3), evalKendallTau: +e.kendallTau.toFixed(3),
    // Points of the curve (docs/design.md section 4.3): the share of B final PageRank held after 10, 25, 50 and 75% of its pages, with the best order beside it.
    curve: [0.1, 0.25, 0.5, 0.75].map((f) => { const c = e.curve.find((x) => x.fractionPages >= f); return { pages: f, cumulative: +c.cumulativePageRank.toFixed(3), best: +c.upperBound.toFixed(3) }; }) }));
}' "$out"
