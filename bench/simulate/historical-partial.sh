#!/usr/bin/env bash
# historical-partial-pagerank against historical-pagerank-parent under Castillo's Table 4.1
# setting (w = 15 s, c = 1, r = 1; issue 27, item 5), for docs/results.md "A policy of
# crawlbench's own", from a fresh build:
#   npm run build && bash bench/simulate/historical-partial.sh
# The generated national web at reproduce's default size (1,000,000 pages on 20,000 sites, at
# most 10,000 a site) for web seeds 1, 2 and 3, then the UCI graph. Each history is derived from
# the graph (a random 55% of its pages with their PageRank), as for Table 4.1. Writes
# bench/out/historical-partial/*.txt; 15-40 minutes on 2 cores, most of it the 1M-page runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=bench/out/historical-partial
mkdir -p "$OUT"
CB="node --max-old-space-size=4096 bin/crawlbench.js"
TABLE_4_1="--r 1 --w 15s --c 1"
# The UCI ICS web graph is not shipped with crawlbench (its terms forbid republishing it);
# CRAWLBENCH_UCI names the folder holding its pages.tsv.gz and links.tsv.gz, as for the tests.
G="${CRAWLBENCH_UCI:?set CRAWLBENCH_UCI to the folder holding the UCI ICS web graph (pages.tsv.gz and links.tsv.gz)}"

for SEED in 1 2 3; do
  N=bench/out/national-1m-seed$SEED
  [ -f $N/links.tsv.gz ] || $CB testweb --web-seed $SEED --sites 20000 --pages 1000000 --max-site-pages 10000 --latency off --export $N
  $CB simulate --graph $N --policy historical-pagerank-parent,historical-partial-pagerank $TABLE_4_1 | tee "$OUT/national-seed$SEED.txt"
done

$CB simulate --graph "$G" $TABLE_4_1 --policy breadth-first,partial-pagerank,historical-pagerank-zero,historical-pagerank-random,historical-pagerank-parent,historical-partial-pagerank,historical-pagerank-omniscient,omniscient \
  | tee "$OUT/uci.txt"
# The same pair with other derived histories (and servers): --network-seed draws both.
for NS in 2 3; do
  $CB simulate --graph "$G" $TABLE_4_1 --network-seed $NS --policy historical-pagerank-parent,historical-partial-pagerank | tee "$OUT/uci-network-seed$NS.txt"
done
