import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../core/parse/extract-links.js';

const PAGE = 'http://www.a.cl/dir/page.html';
const urls = (html: string, page = PAGE) => extractLinks(html, page).links.map((l) => l.url);

describe('extractLinks', () => {
  it('finds a/area href, frame/iframe src and meta refresh, with their kind', () => {
    const r = extractLinks(
      `<html><head><meta http-equiv="Refresh" content="0; URL='/moved'"></head><body>
       <a href="x.html">X</a>
       <map><area href="/map1" alt="  Region   one "></map>
       <frameset><frame src="f.html"></frameset>
       <iframe src="//cdn.a.cl/i"></iframe>
       <a name="anchor-only">no href</a>
       </body></html>`,
      PAGE,
    );
    expect(r.links).toEqual([
      { url: 'http://www.a.cl/moved', anchor: '', nofollow: false, kind: 'refresh' },
      { url: 'http://www.a.cl/dir/x.html', anchor: 'X', nofollow: false, kind: 'a' },
      { url: 'http://www.a.cl/map1', anchor: 'Region one', nofollow: false, kind: 'area' },
      { url: 'http://www.a.cl/dir/f.html', anchor: '', nofollow: false, kind: 'frame' },
      { url: 'http://cdn.a.cl/i', anchor: '', nofollow: false, kind: 'iframe' },
    ]);
  });

  it('tolerates broken HTML: upper-case, unquoted attributes, unclosed tags', () => {
    const r = extractLinks(
      `<HTML><BODY><P>Start <A HREF=one.html>One<A href=two.html CLASS=x>Two</a>
       <div><a href='three.html'>Three <b>bold</div> after
       <a href=four.html>Four`,
      PAGE,
    );
    expect(r.links.map((l) => [l.url, l.anchor])).toEqual([
      ['http://www.a.cl/dir/one.html', 'One'],
      ['http://www.a.cl/dir/two.html', 'Two'],
      ['http://www.a.cl/dir/three.html', 'Three bold'],
      ['http://www.a.cl/dir/four.html', 'Four'],
    ]);
  });

  it('decodes entities in hrefs and anchor text', () => {
    const r = extractLinks('<a href="/s?a=1&amp;b=2&#38;c=%7e">Caf&eacute; &amp; t&#233;</a>', PAGE);
    expect(r.links[0]).toMatchObject({ url: 'http://www.a.cl/s?a=1&b=2&c=~', anchor: 'Café & té' });
  });

  it('decodes entities as browsers do: legacy names in text, not before = in attributes; in rel, meta and title too', () => {
    const r = extractLinks(
      '<title>T &copy 2024 &lt;x&gt;</title><a href="/x?a=1&copy=2&amp;b=&lt;3" rel="no&#102;ollow">A &copy B &notit; &amp</a>' +
        '<meta name="robots" content="no&#105;ndex">',
      PAGE,
    );
    expect(r.title).toBe('T © 2024 <x>');
    expect(r.links[0]).toMatchObject({ url: 'http://www.a.cl/x?a=1&copy=2&b=%3C3', anchor: 'A © B ¬it; &', nofollow: true });
    expect(r.noindex).toBe(true);
  });

  it('resolves against the first <base href>, itself resolved against the page, even for earlier links', () => {
    expect(
      urls('<a href="early">e</a><base href="/other/"><base href="http://ignored.cl/"><a href="late">l</a>'),
    ).toEqual(['http://www.a.cl/other/early', 'http://www.a.cl/other/late']);
    expect(urls('<base href="https://cdn.b.cl/x/"><a href="../y">y</a><a href="#top">t</a>')).toEqual([
      'https://cdn.b.cl/y',
      'https://cdn.b.cl/x/',
    ]);
    expect(urls('<base href="javascript:alert(1)"><a href="y">y</a>')).toEqual(['http://www.a.cl/dir/y']);
  });

  it('drops mailto:, javascript:, data:, tel:, unparsable and same-document links', () => {
    expect(
      urls(`<a href="mailto:a@a.cl">m</a><a href="javascript:void(0)">j</a><a href="data:text/html,x">d</a>
            <a href="tel:+5621234">t</a><a href="http://exa mple.cl/">u</a><a href="#top">f</a><a href="">e</a>
            <a href="  ok.html  ">ok</a>`),
    ).toEqual(['http://www.a.cl/dir/ok.html']);
  });

  it('canonicalises links: fragments, session ids, case', () => {
    expect(urls('<a href="HTTP://WWW.A.CL:80/Doc;jsessionid=XY?PHPSESSID=1&q=%7e#frag">d</a>')).toEqual([
      'http://www.a.cl/Doc?q=~',
    ]);
  });

  it('de-duplicates by URL keeping the first occurrence; nofollow only if every occurrence is', () => {
    const r = extractLinks(
      `<a href="/a" rel="nofollow">first</a><a href="/a#x">second</a>
       <a href="/b" rel="NoFollow noopener">b1</a><a href="/b" rel="external nofollow">b2</a>
       <a href="/c" rel="nofollowing">c</a>`,
      PAGE,
    );
    expect(r.links.map((l) => [l.url, l.anchor, l.nofollow])).toEqual([
      ['http://www.a.cl/a', 'first', false],
      ['http://www.a.cl/b', 'b1', true],
      ['http://www.a.cl/c', 'c', false],
    ]);
  });

  it('anchor text: collapsed, trimmed, at most 200 chars; image alt when there is no text; no script', () => {
    const long = 'word '.repeat(100);
    const r = extractLinks(
      `<a href="/1">  Hello
          <span>big</span>\tworld  </a><a href="/2">${long}</a><a href="/3"><img src="i.png" alt="Logo UChile"></a>
       <a href="/4">x<script>var s = "<b>";</script>y</a>`,
      PAGE,
    );
    expect(r.links[0]!.anchor).toBe('Hello big world');
    expect(r.links[1]!.anchor.length).toBeLessThanOrEqual(200);
    expect(r.links[1]!.anchor.startsWith('word word')).toBe(true);
    expect(r.links[2]!.anchor).toBe('Logo UChile');
    expect(r.links[3]!.anchor).toBe('xy');
  });

  it('reads meta robots noindex/nofollow/none, case-insensitively', () => {
    expect(extractLinks('<meta name="robots" content="noindex, nofollow">', PAGE)).toMatchObject({ noindex: true, nofollow: true });
    expect(extractLinks('<META NAME=ROBOTS CONTENT=NOINDEX>', PAGE)).toMatchObject({ noindex: true, nofollow: false });
    expect(extractLinks('<meta name="robots" content="index,nofollow">', PAGE)).toMatchObject({ noindex: false, nofollow: true });
    expect(extractLinks('<meta name="robots" content="none">', PAGE)).toMatchObject({ noindex: true, nofollow: true });
    expect(extractLinks('<meta name="description" content="noindex nofollow">', PAGE)).toMatchObject({ noindex: false, nofollow: false });
    // Page-level nofollow leaves the per-link flag alone: the caller combines them.
    expect(extractLinks('<meta name="robots" content="nofollow"><a href="/x">x</a>', PAGE).links[0]!.nofollow).toBe(false);
  });

  it('reads the various refresh spellings', () => {
    expect(urls('<meta http-equiv="refresh" content="5;url=/next">')).toEqual(['http://www.a.cl/next']);
    expect(urls('<meta http-equiv="refresh" content="0; URL=http://b.cl/">')).toEqual(['http://b.cl/']);
    expect(urls(`<meta http-equiv=refresh content='3, "x.html"'>`)).toEqual(['http://www.a.cl/dir/x.html']);
    expect(urls('<meta http-equiv="refresh" content="0;other.html">')).toEqual(['http://www.a.cl/dir/other.html']);
    expect(urls('<meta http-equiv="refresh" content="30">')).toEqual([]);
  });

  it('title: first <title>, collapsed, at most 500 chars, not an SVG title', () => {
    expect(extractLinks('<svg><title>icon</title></svg><title>\n  Universidad &amp;\n de Chile </title><title>2</title>', PAGE).title).toBe(
      'Universidad & de Chile',
    );
    expect(extractLinks(`<title>${'t'.repeat(600)}</title>`, PAGE).title.length).toBe(500);
    expect(extractLinks('<title>Unclosed <a href="/x">not a link', PAGE).title).toBe('Unclosed <a href="/x">not a link');
    expect(extractLinks('<p>no title</p>', PAGE).title).toBe('');
  });

  it('handles empty and non-HTML input', () => {
    expect(extractLinks('', PAGE)).toEqual({ title: '', links: [], noindex: false, nofollow: false });
    expect(extractLinks('just text < > & stuff', PAGE).links).toEqual([]);
  });
});

describe('memory', () => {
  it('keeps nothing of a page once its links are out (links to 2,000 sites from 2,000 pages of 200 KB)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const filler = `<p>${'x'.repeat(200_000)}</p>`;
    gc();
    const before = process.memoryUsage().heapUsed;
    let links = 0;
    for (let i = 0; i < 2_000; i++) {
      // A fresh text each time, as each fetched page is; its links' strings are slices of it.
      const html = `${filler}<a href="http://site${i}.test/a/b.html">x</a><a href="/p${i}">y</a>`.replace('<p>', `<p>${i}`);
      links += extractLinks(html, `http://page${i}.test/`).links.length;
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(links).toBe(4_000);
    // Each page kept alive would be 200 KB: 400 MB for 2,000 of them.
    expect(retained).toBeLessThan(50 * 2 ** 20);
  });
});
