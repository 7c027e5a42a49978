#!/usr/bin/env bash
# Crawls the demo web once per policy (same web, same politeness) and evaluates each crawl
# against the PageRank of its complete graph: the table in docs/results.md.
#   bash bench/policies/compare-demo.sh [OUT_DIR] [POLICY ...]
# Takes about 2-3 minutes per policy on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-bench/out/policies}
shift || true
policies=("$@")
[ ${#policies[@]} -gt 0 ] || policies=(breadth-first backlink-count opic larger-sites-first crawl-ability)
mkdir -p "$out"
bin="node bin/crawlbench.js"
$bin testweb --web-seed 1 --sites 600 --pages 20000 --latency 20 --seeds-out "$out/seeds.txt" > "$out/web.json" &
web=$!
trap 'kill $web 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$out/web.json" ] && break; sleep 0.2; done
for p in "${policies[@]}"; do
  rm -f "$out/$p.db" "$out/$p.db-wal" "$out/$p.db-shm"
  $bin crawl --db "$out/$p.db" --seeds "$out/seeds.txt" --scope .demo --resolve '*.demo=127.0.0.1' \
    --policy "$p" --w 50ms --c 10 --r 64 --robots-retry 5s --quiet --json > "$out/$p.crawl.json"
  $bin eval "$out/$p.db" --json > "$out/$p.eval.json"
  $bin eval "$out/$p.db" --csv "$out/$p.curve.csv" > "$out/$p.eval.txt"
  echo "$p: $(cat "$out/$p.crawl.json")" >&2
done
node -e '
const fs = require("fs"); const out = process.argv[1]; const ps = process.argv.slice(2);
const f = (x) => (typeof x === "number" ? x.toFixed(3) : "-");
console.log("| policy | avg cumulative PageRank | Kendall tau | pages holding 50% / 80% / 95% of PageRank | crawl & stop, top 10% | crawl time (s) |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const p of ps) {
  const e = JSON.parse(fs.readFileSync(`${out}/${p}.eval.json`, "utf8"));
  const c = JSON.parse(fs.readFileSync(`${out}/${p}.crawl.json`, "utf8"));
  const shares = e.pagesForPageRank.map((x) => f(x.fractionPages)).join(" / ");
  const stop = e.crawlAndStop.find((x) => x.percent === 10);
  console.log(`| ${p} | ${f(e.averageCumulativePageRank)} | ${f(e.kendallTau)} | ${shares} | ${f(stop && stop.share)} | ${c.seconds} |`);
}
const e0 = JSON.parse(fs.readFileSync(`${out}/${ps[0]}.eval.json`, "utf8"));
console.log(`\nUpper bound (pages in decreasing PageRank): ${f(e0.upperBoundAverage)}; random order: 0.500.`);
' "$out" "${policies[@]}"
