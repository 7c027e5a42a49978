import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parsePage, type ParseInput } from '../../core/parse/page-parser.js';
import { ParsePool } from '../../core/parse/parse-pool.js';
import { ErrorCodes } from '../../core/errors.js';

const BAD_ENCODING = ErrorCodes.BAD_ENCODING;

const page = (body: Uint8Array | string, extra: Partial<ParseInput> = {}): ParseInput => ({
  body: typeof body === 'string' ? new Uint8Array(Buffer.from(body, 'utf8')) : body,
  url: 'http://a.test/dir/page.html',
  contentType: 'text/html',
  contentEncoding: undefined,
  maxDecodedBytes: 1 << 20,
  ...extra,
});

const links = Array.from({ length: 40 }, (_, i) => `<a href="${i % 3 === 0 ? `/p/${i}` : i % 3 === 1 ? `q${i}.html#frag` : `http://B.test:80/x/${i}`}"${i % 7 === 0 ? ' rel="nofollow"' : ''}>link ${i} &amp; more</a>`).join('\n');
const INPUTS: ParseInput[] = [
  page(`<!doctype html><title>Plain &eacute;t&eacute;</title><body>${links}<area href="/map" alt="Map"><iframe src="/frame"></iframe><meta http-equiv=refresh content="5; url=/next"></body>`),
  page(Buffer.from('<meta charset="windows-1252"><title>Caf\xe9</title><a href="/men\xfc">Men\xfc</a>', 'latin1')),
  page(gzipSync(Buffer.from(`<title>Zipped</title>${links}`)), { contentEncoding: 'gzip' }),
  page('<meta name=robots content="noindex, nofollow"><base href="/base/"><a href="rel.html">x</a>'),
  page(gzipSync(Buffer.alloc(3 << 20, 'a')), { contentEncoding: 'gzip' }), // decodes past maxDecodedBytes: refused with its code
  page(Buffer.from('not gzip at all'), { contentEncoding: 'gzip' }),
  page(''),
];

describe('parse pool', () => {
  it('pages parsed on its thread, many to a message, come back as parsePage answers them inline', async () => {
    const pool = ParsePool.start(1, undefined, 0);
    expect(pool, 'the parse thread is built (npx tsc -p tsconfig.json)').not.toBeNull();
    try {
      // 700 pages at once: several messages of at most 64 pages, answered out of the crawl thread.
      const many = Array.from({ length: 100 }, () => INPUTS).flat();
      const answers = await Promise.all(many.map((input) => pool!.parse(input)));
      answers.forEach((a, i) => expect(a).toEqual(parsePage(many[i]!)));
      expect(answers.filter((a) => 'errorCode' in a).map((a) => (a as { errorCode: string }).errorCode).slice(0, 2)).toEqual(['CRAWL_DECODED_TOO_LARGE', BAD_ENCODING]);
    } finally {
      await pool!.close();
    }
  });

  it('a pool that is closed refuses further pages instead of leaving them unanswered', async () => {
    const pool = ParsePool.start(1)!;
    await pool.close();
    await expect(pool.parse(INPUTS[0]!)).rejects.toThrow('closed');
  });
});
