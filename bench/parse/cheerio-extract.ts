import * as cheerio from 'cheerio';
import type { Extracted, ExtractedLink } from '../../core/parse/extract-links.js';
import { canonicalize } from '../../core/url/canonical.js';

/**
 * The same extraction as core/parse/extract-links.ts, written the obvious way with a DOM
 * (cheerio.load, parse5 underneath). Kept only as the benchmark's point of comparison.
 */
export function extractLinksCheerio(html: string, pageUrl: string): Extracted {
  const $ = cheerio.load(html);
  let base = pageUrl;
  const baseHref = $('base[href]').first().attr('href');
  if (baseHref !== undefined) {
    try {
      const b = new URL(baseHref, pageUrl);
      if (b.protocol === 'http:' || b.protocol === 'https:') base = b.href;
    } catch {
      // ignored, as browsers do
    }
  }
  let noindex = false;
  let nofollow = false;
  $('meta[name]').each((_, el) => {
    const m = $(el);
    if (m.attr('name')!.trim().toLowerCase() !== 'robots') return;
    for (const t of (m.attr('content') ?? '').toLowerCase().split(/[\s,]+/)) {
      if (t === 'noindex') noindex = true;
      else if (t === 'nofollow') nofollow = true;
      else if (t === 'none') noindex = nofollow = true;
    }
  });
  const raw: { href: string; anchor: string; nofollow: boolean; kind: ExtractedLink['kind'] }[] = [];
  $('meta[http-equiv]').each((_, el) => {
    const m = $(el);
    if (m.attr('http-equiv')!.trim().toLowerCase() !== 'refresh') return;
    const r = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(m.attr('content') ?? '');
    let target = r ? r[1]!.trim().replace(/^["']|["']$/g, '') : '';
    if (target !== '') raw.push({ href: target, anchor: '', nofollow: false, kind: 'refresh' });
  });
  $('a[href],area[href],frame[src],iframe[src]').each((_, el) => {
    const e = $(el);
    const kind = (el as { tagName: string }).tagName.toLowerCase() as ExtractedLink['kind'];
    const rel = (e.attr('rel') ?? '').toLowerCase().split(/\s+/).includes('nofollow');
    if (kind === 'a') {
      let anchor = collapse(e.text(), 200);
      if (anchor === '') anchor = collapse(e.find('img[alt]').map((_, i) => $(i).attr('alt')).get().join(' '), 200);
      raw.push({ href: e.attr('href')!, anchor, nofollow: rel, kind });
    } else if (kind === 'area') {
      raw.push({ href: e.attr('href')!, anchor: collapse(e.attr('alt') ?? '', 200), nofollow: rel, kind });
    } else {
      raw.push({ href: e.attr('src')!, anchor: '', nofollow: false, kind });
    }
  });
  const byUrl = new Map<string, ExtractedLink>();
  const links: ExtractedLink[] = [];
  for (const r of raw) {
    const href = r.href.trim();
    if (base === pageUrl && (href === '' || href.startsWith('#'))) continue;
    const url = canonicalize(href, base);
    if (url === null) continue;
    const seen = byUrl.get(url);
    if (seen) {
      if (!r.nofollow) seen.nofollow = false;
      continue;
    }
    const link = { url, anchor: r.anchor, nofollow: r.nofollow, kind: r.kind };
    byUrl.set(url, link);
    links.push(link);
  }
  return { title: collapse($('title').first().text(), 500), links, noindex, nofollow };
}

function collapse(text: string, max: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max).trimEnd();
}
