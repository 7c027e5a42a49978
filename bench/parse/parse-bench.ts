/**
 * Link extraction speed: core/parse/extract-links.ts (htmlparser2, streaming callbacks)
 * against the same extraction through a cheerio DOM. Prints pages/s and MB/s of each.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/parse/parse-bench.js [pages] [seconds]
 *
 * The pages are synthetic but shaped like the national-web pages of docs/design.md section 7:
 * ~10 KB, 5-50 links (mostly relative, some external, some mailto:/javascript:), a head with
 * meta tags, inline script and style, entities and accented text, some sloppy markup.
 */
import { extractLinks, type Extracted } from '../../core/parse/extract-links.js';
import { mulberry32 } from '../../core/random.js';
import { extractLinksCheerio } from './cheerio-extract.js';

const PAGES = Number(process.argv[2] ?? 2000);
const SECONDS = Number(process.argv[3] ?? 4);


const WORDS = (
  'la universidad de chile informa que el periodo de postulación académica comienza en marzo ' +
  'según el calendario oficial investigación docencia extensión biblioteca facultad ciencias ' +
  'físicas matemáticas ingeniería departamento computación noticias eventos contacto año niño'
).split(' ');

function page(r: () => number, i: number): { url: string; html: string } {
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const site = `www.site${i % 97}.cl`;
  const url = `http://${site}/dir${i % 7}/page${i}.html`;
  const nLinks = 5 + Math.floor(r() * 46);
  const link = (k: number): string => {
    const x = r();
    const text = words(1 + Math.floor(r() * 4));
    if (x < 0.45) return `<a href="/dir${k % 9}/p${k}.html">${text}</a>`;
    if (x < 0.6) return `<A HREF=p${k}.html class=nav>${text}</A>`;
    if (x < 0.72) return `<a href="http://www.site${k % 500}.cl/?id=${k}&amp;lang=es" rel="nofollow">${text} &raquo;</a>`;
    if (x < 0.8) return `<a href="../otro/${encodeURIComponent('página')}${k}.html#sec"><img src="/i/${k}.png" alt="${text}"></a>`;
    if (x < 0.86) return `<a href="mailto:contacto${k}@${site}">${text}</a>`;
    if (x < 0.9) return `<a href="javascript:void(0)" onclick="go(${k})">${text}</a>`;
    if (x < 0.95) return `<a href='https://portal.gob.cl/tramite/${k}?PHPSESSID=${Math.floor(r() * 1e9)}'>${text}</a>`;
    return `<a href="/noticias/${2000 + (k % 25)}/${k}.html"><span>${text}</span> <b>${words(2)}</b></a>`;
  };
  const parts: string[] = [
    '<!DOCTYPE html><html lang="es"><head><meta charset="utf-8">',
    `<title>${words(6)} &mdash; Sitio ${i}</title>`,
    `<meta name="description" content="${words(20)}"><meta name="viewport" content="width=device-width">`,
    r() < 0.05 ? '<meta name="robots" content="noindex,follow">' : '',
    '<link rel="stylesheet" href="/css/main.css">',
    `<style>body{font:14px Arial}.nav a{color:#036}${'.c' + i + '{margin:0 auto}'.repeat(20)}</style>`,
    `<script>var _gaq=_gaq||[];_gaq.push(['_setAccount','UA-${i}']);function go(k){location.href='/x?k='+k;}${'/* a < b && c > d */'.repeat(15)}</script>`,
    '</head><body><div id="header"><ul class="nav">',
  ];
  for (let k = 0; k < nLinks; k++) {
    if (k === Math.floor(nLinks / 3)) parts.push('</ul></div><div id="content"><h1>' + words(5) + '</h1>');
    parts.push(k < nLinks / 3 ? `<li>${link(k)}` : `<p>${words(10 + Math.floor(r() * 30))} ${link(k)} ${words(5)}.</p>`);
  }
  // Filler up to ~10 KB: paragraphs, a table, comments, the odd unclosed tag.
  const target = 8000 + Math.floor(r() * 4000);
  let size = parts.reduce((n, p) => n + p.length, 0);
  while (size < target) {
    const x = r();
    const chunk =
      x < 0.6
        ? `<p>${words(40)} &nbsp;&copy; ${words(10)}</p>\n`
        : x < 0.8
          ? `<table border=1><tr><td>${words(5)}<td>${words(5)}</tr></table>\n`
          : x < 0.9
            ? `<!-- ${words(12)} -->\n`
            : `<div class=box><P>${words(25)}<br>\n`;
    parts.push(chunk);
    size += chunk.length;
  }
  parts.push('<div id="footer">© Universidad &amp; Co.</div></body></html>');
  return { url, html: parts.join('') };
}

type Extractor = (html: string, url: string) => Extracted;

function measure(name: string, fn: Extractor, pages: { url: string; html: string }[], bytes: number) {
  for (const p of pages.slice(0, 200)) fn(p.html, p.url); // warm-up
  let n = 0;
  let links = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    for (const p of pages) links += fn(p.html, p.url).links.length;
    n++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < SECONDS);
  const pagesPerSec = (n * pages.length) / elapsed;
  const mbPerSec = (n * bytes) / 1e6 / elapsed;
  console.log(
    `${name.padEnd(12)} ${pagesPerSec.toFixed(0).padStart(7)} pages/s  ${mbPerSec.toFixed(1).padStart(6)} MB/s  ` +
      `(${n} passes, ${(links / n / pages.length).toFixed(1)} links/page)`,
  );
  return pagesPerSec;
}

const r = mulberry32(42); // the same pages on every run
const pages = Array.from({ length: PAGES }, (_, i) => page(r, i));
const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p.html), 0);
console.log(`${pages.length} pages, ${(bytes / 1e6).toFixed(1)} MB, mean ${(bytes / pages.length / 1024).toFixed(1)} KiB/page; node ${process.version}`);

// Both must find the same links, or the comparison means nothing.
let differ = 0;
for (const p of pages) {
  const a = extractLinks(p.html, p.url);
  const b = extractLinksCheerio(p.html, p.url);
  if (JSON.stringify(a) !== JSON.stringify(b)) differ++;
}
console.log(`pages whose extraction differs between the two: ${differ}`);

const fast = measure('htmlparser2', extractLinks, pages, bytes);
const slow = measure('cheerio', extractLinksCheerio, pages, bytes);
console.log(`htmlparser2 / cheerio = ${(fast / slow).toFixed(2)}x`);
