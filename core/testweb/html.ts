/**
 * Renders a page of any Web on demand, deterministically: the same (web, id, port) always gives
 * the same bytes, and nothing is cached, so serving a million-page web costs no memory.
 *
 * HTML pages list their out-links as <a href> with a deterministic mix of href forms a crawler
 * must resolve (root-relative, document-relative with ../, absolute with port, protocol-relative
 * across sites), anchor text taken from the target's title, an occasional rel=nofollow link
 * (Web.nofollow) and filler paragraphs up to the page's target size.
 */
import { hash } from '../random.js';
import { isHtml, siteScheme, type Web } from './web.js';
import { fillerText } from './words.js';

const S_HREF = 41;
const S_FILL = 42;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * A document-relative reference from page `from` to page `to` ('../b/x.html', 'x.html',
 * 'item?id=3'), or null when none is safe (targets that are directories or the root).
 */
export function relativeRef(from: string, to: string): string | null {
  const fq = from.indexOf('?');
  const fromPath = fq < 0 ? from : from.slice(0, fq);
  const tq = to.indexOf('?');
  const toPath = tq < 0 ? to : to.slice(0, tq);
  const query = tq < 0 ? '' : to.slice(tq);
  const cut = toPath.lastIndexOf('/');
  const file = toPath.slice(cut + 1);
  if (file === '' || file === '.' || file === '..') return null;
  const fromDirs = fromPath.slice(0, fromPath.lastIndexOf('/')).split('/').filter(Boolean);
  const toDirs = toPath.slice(0, cut).split('/').filter(Boolean);
  if (toPath.slice(0, cut).includes('//')) return null; // empty segments do not survive '../'
  let common = 0;
  while (common < fromDirs.length && common < toDirs.length && fromDirs[common] === toDirs[common]) common++;
  let rel = '../'.repeat(fromDirs.length - common) + toDirs.slice(common).map((d) => d + '/').join('') + file + query;
  // 'a:b.html' would read as a URL scheme.
  const colon = rel.indexOf(':');
  if (colon >= 0 && (rel.indexOf('/') < 0 || colon < rel.indexOf('/'))) rel = './' + rel;
  return rel;
}

/**
 * The href page `from` uses for its link number `k` to page `to`. Absolute links carry the
 * target's scheme; a link from another site to a site on both schemes says http one time in
 * two (the crawler follows the redirect); a protocol-relative link only where the scheme it
 * inherits reaches the target.
 */
export function hrefFor(web: Web, from: number, to: number, k: number, port: number): string {
  const seed = web.seed ?? 0;
  const toSite = web.siteOf(to);
  const fromSite = web.siteOf(from);
  const toPath = web.path(to);
  const target = web.sites[toSite]!;
  const h = hash(seed, from, k, S_HREF);
  const r = h % 20;
  const scheme = target.scheme === 'both' && fromSite !== toSite && ((h >>> 8) & 1) === 0 ? 'http' : siteScheme(target);
  const absolute = `${scheme}://${target.host}:${port}${toPath}`;
  if (fromSite !== toSite) {
    const inherited = siteScheme(web.sites[fromSite]!);
    return r < 18 || (inherited !== siteScheme(target) && target.scheme !== 'both') ? absolute : `//${target.host}:${port}${toPath}`; // protocol-relative
  }
  if (r < 12) return toPath;
  if (r < 15) return relativeRef(web.path(from), toPath) ?? toPath;
  return absolute;
}

/** Anchor text: the target's title up to ' | ' (its topic words, as on real sites). */
function anchorText(web: Web, to: number): string {
  const t = web.title(to);
  const bar = t.indexOf(' | ');
  return bar < 0 ? t : t.slice(0, bar);
}

/** Adds the server's port to absolute http URLs without one, so that hand-made links stay on loopback. */
function withPort(href: string, port: number): string {
  return href.replace(/^(https?:)?\/\/([^/:?#]+)(?=[/?#]|$)/i, (_m, scheme: string | undefined, host: string) => `${scheme ?? ''}//${host}:${port}`);
}

export function renderPage(web: Web, id: number, port: number): Buffer {
  const type = web.contentType(id);
  const size = web.size(id);
  const key = web.contentKey?.(id) ?? id;
  if (!isHtml(type)) return renderBinary(type, size, hash(web.seed ?? 0, key, S_FILL));
  const title = escapeHtml(web.title(id));
  const parts: string[] = [
    `<!doctype html><html><head><meta charset=utf-8><title>${title}</title></head><body>\n<h1>${title}</h1>\n<ul>\n`,
  ];
  if (web.anchors) {
    for (const a of web.anchors(id)) {
      const rel = a.rel ? ` rel="${escapeHtml(a.rel)}"` : '';
      const href = escapeHtml(withPort(a.href, port));
      parts.push(`<li><a href="${href}"${rel}>${escapeHtml(a.text ?? a.href)}</a></li>\n`);
    }
  } else {
    const links = web.outLinks(id);
    for (let k = 0; k < links.length; k++) {
      const to = links[k]!;
      parts.push(`<li><a href="${escapeHtml(hrefFor(web, id, to, k, port))}">${escapeHtml(anchorText(web, to))}</a></li>\n`);
    }
    const nf = web.nofollow ? web.nofollow(id) : -1;
    if (nf >= 0) parts.push(`<li><a rel=nofollow href="${escapeHtml(web.path(nf))}">Log in</a></li>\n`);
  }
  parts.push('</ul>\n');
  const tail = '</body></html>\n';
  let used = 0;
  for (const p of parts) used += Buffer.byteLength(p);
  let pad = size - used - tail.length;
  const h = hash(web.seed ?? 0, key, S_FILL);
  for (let k = 0; pad >= 9; k++) {
    const take = Math.min(700, pad - 8);
    parts.push(`<p>${fillerText(hash(h, k), take)}</p>\n`);
    pad -= take + 8;
  }
  if (pad > 0) parts.push(' '.repeat(pad));
  parts.push(tail);
  return Buffer.from(parts.join(''), 'utf8');
}

/** Non-HTML bodies: the right magic bytes, then filler, `size` bytes in all. */
function renderBinary(type: string, size: number, h: number): Buffer {
  const magic = type === 'application/pdf' ? '%PDF-1.4\n' : type === 'image/png' ? '\x89PNG\r\n\x1a\n' : '';
  const head = Buffer.from(magic, 'latin1');
  const body = Buffer.allocUnsafe(Math.max(size, head.length));
  head.copy(body);
  body.write(fillerText(h, body.length - head.length), head.length, 'latin1');
  return body;
}
