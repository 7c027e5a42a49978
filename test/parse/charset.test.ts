import { describe, expect, it } from 'vitest';
import { charsetFrom, decodeHtml, isHtml } from '../../core/parse/charset.js';

const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
/** "日本語" in Shift_JIS. */
const NIHONGO_SJIS = Uint8Array.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);

describe('charsetFrom', () => {
  it('takes the Content-Type charset parameter, in any case and quoting', () => {
    expect(charsetFrom('text/html; charset=Shift_JIS', ascii('<html>'))).toBe('shift_jis');
    expect(charsetFrom('text/html;CHARSET="iso-8859-1"', ascii(''))).toBe('windows-1252');
    expect(charsetFrom("text/html; format=flowed; charset='windows-1253'", ascii(''))).toBe('windows-1253');
  });

  it('reads <meta charset> and <meta http-equiv=Content-Type> in the first 1024 bytes', () => {
    expect(charsetFrom(undefined, ascii('<html><head><META CHARSET=ISO-8859-7>'))).toBe('iso-8859-7');
    expect(charsetFrom('text/html', ascii('<meta charset="euc-jp"/>'))).toBe('euc-jp');
    expect(
      charsetFrom('text/html', ascii('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">')),
    ).toBe('windows-1251');
    expect(charsetFrom(undefined, ascii("<meta content='text/html;charset=Shift_JIS' http-equiv=content-type>"))).toBe('shift_jis');
    const late = ascii(' '.repeat(1030) + '<meta charset="shift_jis">');
    expect(charsetFrom(undefined, late)).toBe('utf-8');
  });

  it('ignores meta tags that declare nothing and maps a UTF-16 meta to utf-8', () => {
    expect(charsetFrom(undefined, ascii('<meta name="x" content="y"><meta charset="koi8-r">'))).toBe('koi8-r');
    expect(charsetFrom(undefined, ascii('<meta charset="utf-16">'))).toBe('utf-8');
  });

  it('a BOM beats the header (as in browsers); header beats meta', () => {
    expect(charsetFrom('text/html; charset=iso-8859-1', Uint8Array.from([0xef, 0xbb, 0xbf, 0x3c]))).toBe('utf-8');
    expect(charsetFrom(undefined, Uint8Array.from([0xff, 0xfe, 0x3c, 0]))).toBe('utf-16le');
    expect(charsetFrom(undefined, Uint8Array.from([0xfe, 0xff, 0, 0x3c]))).toBe('utf-16be');
    expect(charsetFrom('text/html; charset=windows-1252', ascii('<meta charset="shift_jis">'))).toBe('windows-1252');
  });

  it('unknown labels fall through to the next source, then utf-8', () => {
    expect(charsetFrom('text/html; charset=klingon', ascii('<meta charset="shift_jis">'))).toBe('shift_jis');
    expect(charsetFrom('text/html; charset=klingon', ascii('<p>'))).toBe('utf-8');
    expect(charsetFrom(undefined, ascii('<meta charset="nope">'))).toBe('utf-8');
    expect(charsetFrom('text/html; charset=', ascii(''))).toBe('utf-8');
    expect(charsetFrom(undefined, new Uint8Array(0))).toBe('utf-8');
  });
});

describe('decodeHtml', () => {
  it('decodes a real Shift_JIS page declared by header', () => {
    const body = concat(ascii('<title>'), NIHONGO_SJIS, ascii('</title>'));
    expect(decodeHtml(body, 'text/html; charset=shift_jis')).toEqual({ text: '<title>日本語</title>', charset: 'shift_jis' });
  });

  it('decodes a real Shift_JIS page declared by meta, and gets it wrong without the declaration', () => {
    const body = concat(ascii('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>'), NIHONGO_SJIS);
    const { text, charset } = decodeHtml(body, 'text/html');
    expect(charset).toBe('shift_jis');
    expect(text.endsWith('<p>日本語')).toBe(true);
    expect(decodeHtml(concat(ascii('<p>'), NIHONGO_SJIS), 'text/html').text).not.toContain('日本語');
  });

  it('decodes windows-1252 and drops a UTF-8 BOM', () => {
    expect(decodeHtml(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=latin1').text).toBe('café');
    expect(decodeHtml(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]), undefined)).toEqual({ text: 'aé', charset: 'utf-8' });
  });

  it('replaces invalid bytes instead of failing', () => {
    expect(decodeHtml(Uint8Array.from([0x61, 0xff, 0x62]), 'text/html').text).toBe('a\ufffdb');
  });
});

describe('isHtml', () => {
  it.each([
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    ['application/xhtml+xml', true],
    [undefined, true],
    ['', true],
    ['text/plain', false],
    ['application/pdf', false],
    ['image/png', false],
    ['text/htmlx', false],
  ])('%s -> %s', (ct, expected) => {
    expect(isHtml(ct)).toBe(expected);
  });
});
