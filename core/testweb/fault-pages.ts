/**
 * Fixed bodies of the fault sites that test a crawler's parsing and decoding: broken markup
 * with the links a tolerant parser must still find, and pages in legacy encodings.
 */
import { escapeHtml } from './html.js';

export function simplePage(title: string, hrefs: string[], extra = ''): string {
  const links = hrefs.map((h) => `<li><a href="${escapeHtml(h)}">${escapeHtml(h)}</a></li>\n`).join('');
  const t = escapeHtml(title);
  return `<!doctype html><html><head><meta charset=utf-8><title>${t}</title></head><body>\n<h1>${t}</h1>\n<ul>\n${links}</ul>\n${extra}</body></html>\n`;
}

/** Served at broken-html.<suffix>/; `<base href="/base/">` applies to the relative hrefs. */
export const BROKEN_HTML = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<HTML><HEAD><TITLE>Broken markup</TITLE>
<BASE HREF="/base/">
</HEAD>
<BODY BGCOLOR=white>
<P>Unclosed paragraph <B>bold <I>italic
<A HREF=/x.html>unquoted absolute path</A>
<a href='single.html'>single quotes, relative to the base</a>
<A hReF="UPPER.html" TARGET=_blank>mixed-case attribute name</A>
<table><tr><td><a href="/table-cell.html">in a table cell</td><tr><td><a href=/table-unclosed.html>anchor never closed
</table>
<map name=m><area shape=rect coords="0,0,10,10" href="/area.html"></map>
<frameset><frame src="/frame.html"></frameset>
<iframe src="/iframe.html"></iframe>
<a href = "/spaced.html" >spaces around the equals sign</a>
<a href="/entity.html?a=1&amp;b=2">entity in the href</a>
<a href="#top">fragment only</a> <a href="javascript:void(0)">script</a> <a href="mailto:web@example.invalid">mail</a>
<!-- <a href="/commented.html">commented out</a> -->
<a href="/after-comment.html">after a comment
<div><span><a href="/deep.html">deep inside unclosed elements
`;

/** Paths a tolerant parser must find in BROKEN_HTML (resolved against the base). */
export const BROKEN_HTML_LINKS: readonly string[] = [
  '/x.html',
  '/base/single.html',
  '/base/UPPER.html',
  '/table-cell.html',
  '/table-unclosed.html',
  '/area.html',
  '/frame.html',
  '/iframe.html',
  '/spaced.html',
  '/entity.html?a=1&b=2',
  '/after-comment.html',
  '/deep.html',
];

/** Paths that must not be taken as links (inside a comment). */
export const BROKEN_HTML_NOT_LINKS: readonly string[] = ['/commented.html'];

/** Titles of the latin1 site's pages as a correct decoder shows them. */
export const LATIN1_TITLES = {
  '/cp1252.html': 'Café Ñandú – “Año” 5 €',
  '/sjis-meta.html': '日本語のページ',
  '/sjis-equiv.html': '日本語のページ 2',
} as const;

// windows-1252 differs from ISO-8859-1 in 0x80-0x9F; Node 20's TextDecoder('windows-1252')
// decodes those bytes as C1 controls, which is exactly the mistake this page exposes.
const CP1252_EXTRA: Record<string, number> = { '€': 0x80, '–': 0x96, '—': 0x97, '“': 0x93, '”': 0x94, '‘': 0x91, '’': 0x92 };

export function encodeCp1252(s: string): Buffer {
  const out = Buffer.alloc(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const extra = CP1252_EXTRA[s[i]!];
    if (extra !== undefined) out[i] = extra;
    else if (c < 0x80 || (c >= 0xa0 && c <= 0xff)) out[i] = c;
    else throw new Error(`no windows-1252 byte for ${s[i]}`);
  }
  return out;
}

// Shift_JIS for the few characters used here (a full table is not needed for one title).
const SJIS: Record<string, number[]> = {
  日: [0x93, 0xfa],
  本: [0x96, 0x7b],
  語: [0x8c, 0xea],
  の: [0x82, 0xcc],
  ペ: [0x83, 0x79],
  ー: [0x81, 0x5b],
  ジ: [0x83, 0x57],
};

export function encodeShiftJis(s: string): Buffer {
  const bytes: number[] = [];
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (c < 0x80) bytes.push(c);
    else if (SJIS[ch]) bytes.push(...SJIS[ch]);
    else throw new Error(`no Shift_JIS bytes for ${ch}`);
  }
  return Buffer.from(bytes);
}

export function latin1Body(path: keyof typeof LATIN1_TITLES): Buffer {
  const title = LATIN1_TITLES[path];
  if (path === '/cp1252.html') {
    return encodeCp1252(
      `<html><head><title>${title}</title></head><body><p>Crème brûlée – déjà vu</p><a href="/">home</a></body></html>\n`,
    );
  }
  const meta =
    path === '/sjis-meta.html'
      ? '<meta charset="Shift_JIS">'
      : '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">';
  return encodeShiftJis(`<html><head>${meta}<title>${title}</title></head><body><p>${title}</p><a href="/">home</a></body></html>\n`);
}
