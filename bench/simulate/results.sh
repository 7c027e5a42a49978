#!/usr/bin/env bash
# The simulator's tables in docs/results.md (issue 5), from a fresh build:
#   npm run build && bash bench/simulate/results.sh
# Writes bench/out/sim-results/*.txt (tables) and *.csv (curves); about 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=bench/out/sim-results
mkdir -p "$OUT"
CB="node --max-old-space-size=4096 bin/crawlbench.js"
# The UCI ICS web graph is not shipped with crawlbench (its terms forbid republishing it);
# CRAWLBENCH_UCI names the folder holding its pages.tsv.gz and links.tsv.gz, as for the tests.
G="${CRAWLBENCH_UCI:?set CRAWLBENCH_UCI to the folder holding the UCI ICS web graph (pages.tsv.gz and links.tsv.gz)}"
BANDWIDTHS=200,2KB,20KB,200KB,2MB,20MB

# Policy table on the real graph: the papers' politeness (w = 15 s, c = 1) with r = 64 ...
$CB simulate --graph "$G" --policy all --r 64 --w 15s --c 1 --csv "$OUT/uci-policies.csv" | tee "$OUT/uci-policies.txt"
# ... and the order alone: one connection, no waits, no latency.
$CB simulate --graph "$G" --policy all --r 1 --w 0 --latency off | tee "$OUT/uci-policies-order.txt"

# Speed-up tables: larger-sites-first, r in {1, 64, 256}, 200 B/s .. 20 MB/s, c = 1 and 100.
$CB simulate --graph "$G" --policy larger-sites-first --r 1,64,256 --bandwidth $BANDWIDTHS --c 1,100 --w 15s \
  --csv "$OUT/uci-speedup.csv" | tee "$OUT/uci-speedup.txt"

# The same on a generated national-shaped graph of 10,000 sites (300,000 pages, no site over 3,000).
N=bench/out/national-10k
[ -f $N/links.tsv.gz ] || $CB testweb --web-seed 1 --sites 10000 --pages 300000 --max-site-pages 3000 --latency off --export $N
$CB simulate --graph $N --policy larger-sites-first --r 1,64,256 --bandwidth $BANDWIDTHS --c 1,100 --w 15s \
  --csv "$OUT/national-speedup.csv" | tee "$OUT/national-speedup.txt"
# ... and one batch of it, at most 30 pages per site (as a crawler's batch spans many sites):
# no site's politeness then bounds the batch, so the speed-up can grow with the bandwidth.
$CB simulate --graph $N --policy larger-sites-first --r 1,64,256 --bandwidth $BANDWIDTHS --c 1,100 --w 15s \
  --max-pages-per-site 30 --csv "$OUT/national-batch-speedup.csv" | tee "$OUT/national-batch-speedup.txt"
$CB simulate --graph $N --policy breadth-first,backlink-count,partial-pagerank,opic,larger-sites-first,historical-pagerank-parent,omniscient \
  --r 256 --w 15s --c 1 --bandwidth 2MB --csv "$OUT/national-policies.csv" | tee "$OUT/national-policies.txt"
