#!/usr/bin/env bash
# The conditional recrawl in docs/results.md (issue 26): the demo web (the workbench's demo: 60
# sites, 3,000 pages, 20 ms latency, validators on) crawled breadth-first; then its revision 2
# ("months later") crawled twice on the same port, both guided by the first crawl
# (historical-pagerank-parent): with conditional requests (the default) and --unconditional.
# Prints, for each recrawl: pages fetched, pages not modified, links, body bytes received,
# seconds; and whether the two hold the same pages and links. About a minute here.
#   bash bench/recrawl/recrawl.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-bench/out/recrawl}
rm -rf "$out"; mkdir -p "$out"
cb="node bin/crawlbench.js"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
politeness=(--w 50ms --c 10 --r 64 --scope .demo --resolve '*.demo=127.0.0.1' --robots-retry 5s --quiet --json)

serve() { # revision -> starts the web on $port, writes its seeds
  $cb testweb --web-seed 1 --sites 60 --pages 3000 --latency 20 --validators --revision "$1" --port "$port" --seeds-out "$out/seeds-$1.txt" > "$out/web-$1.json" &
  web=$!
  for _ in $(seq 1 100); do [ -s "$out/web-$1.json" ] && break; sleep 0.2; done
}

serve 1
$cb crawl --db "$out/a.db" --seeds "$out/seeds-1.txt" "${politeness[@]}" > "$out/a.json"
kill $web; wait $web 2>/dev/null || true
serve 2
guided=(--policy historical-pagerank-parent --history "$out/a.db")
$cb crawl --db "$out/b-conditional.db" --seeds "$out/seeds-2.txt" "${guided[@]}" "${politeness[@]}" > "$out/b-conditional.json"
$cb crawl --db "$out/b-full.db" --seeds "$out/seeds-2.txt" "${guided[@]}" --unconditional "${politeness[@]}" > "$out/b-full.json"
kill $web; wait $web 2>/dev/null || true
node --input-type=module -e "
import Database from './dist/core/store/sqlite.js';
import { readFileSync } from 'node:fs';
const out = process.argv[1];
const q = (db, sql) => { const d = new Database(db, { readonly: true }); try { return d.prepare(sql).all(); } finally { d.close(); } };
const row = (name) => {
  const db = out + '/' + name + '.db';
  const s = JSON.parse(readFileSync(out + '/' + name + '.json', 'utf8'));
  const [p] = q(db, \"SELECT count(*) AS fetched, coalesce(sum(not_modified), 0) AS nm FROM pages WHERE status IN ('fetched', 'duplicate')\");
  const [b] = q(db, 'SELECT sum(bytes) AS body FROM sites');
  const pages = q(db, 'SELECT url, status FROM pages ORDER BY url').map((r) => r.url + ' ' + r.status).join('\n');
  const links = q(db, 'SELECT a.url AS s, b.url AS d FROM links l JOIN pages a ON a.id = l.src JOIN pages b ON b.id = l.dst ORDER BY 1, 2').map((r) => r.s + ' ' + r.d).join('\n');
  return { name, fetched: p.fetched, notModified: p.nm, links: s.links, body: b.body, seconds: s.seconds, pages, linkList: links };
};
const c = row('b-conditional'), f = row('b-full');
const fmt = (n) => n.toLocaleString('en-US');
console.log('| recrawl of revision 2 | pages fetched | not modified (304) | links | body bytes received | seconds |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of [c, f]) console.log('| ' + (r === c ? 'conditional (default)' : '--unconditional') + ' | ' + fmt(r.fetched) + ' | ' + fmt(r.notModified) + ' | ' + fmt(r.links) + ' | ' + fmt(r.body) + ' | ' + r.seconds.toFixed(1) + ' |');
console.log('same pages: ' + (c.pages === f.pages) + ', same links: ' + (c.linkList === f.linkList));
console.log('body bytes: ' + (100 * c.body / f.body).toFixed(1) + '% of the full recrawl; changed pages: ' + (100 * (1 - c.notModified / c.fetched)).toFixed(1) + '% of its pages');
" "$out"
