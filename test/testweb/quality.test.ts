import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readQualityFile } from '../../core/engine/quality-file.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { writeQualities } from '../../core/testweb/quality-file.js';
import { zipfQualities } from '../../core/testweb/quality.js';
import { pageUrl } from '../../core/testweb/web.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { crawlOrder } from '../policies/order.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';

const dir = tmpDir();

describe('Zipf page qualities (the crawl-ability paper, section 5.3.2)', () => {
  it('gives the N pages the qualities 1/1 .. 1/N, each once, in an order drawn from the seed', () => {
    const q = zipfQualities(5, 1000);
    const sorted = [...q].sort((a, b) => b - a);
    sorted.forEach((x, i) => expect(x).toBeCloseTo(1 / (i + 1), 12));
    expect([...zipfQualities(5, 1000)]).toEqual([...q]);
    expect([...zipfQualities(6, 1000)]).not.toEqual([...q]);
    // Not in page order: the best page is not page 0 and the qualities are not sorted by id.
    expect([...q]).not.toEqual(sorted);
  });

  it('a generated web asked for them has them; its qualities file is read back by URL', () => {
    const web = generateWeb({ seed: 3, sites: 20, pages: 400, quality: 'zipf' });
    expect(generateWeb({ seed: 3, sites: 20, pages: 400 }).quality).toBeUndefined();
    const file = join(dir, 'q.tsv');
    writeQualities(web, 8080, file);
    const read = readQualityFile(file);
    expect(read.size).toBe(web.pageCount);
    for (const id of [0, 17, web.pageCount - 1]) expect(read.get(pageUrl(web, id, 8080))).toBe(web.quality!(id));
  });

  it('refuses a line that is not URL<TAB>quality, naming --history and the line', () => {
    const file = join(dir, 'bad.tsv');
    writeFileSync(file, 'http://a.test/\t1\nhttp://a.test/x\tmany\n');
    expect(() => readQualityFile(file)).toThrow(/--history: .*bad\.tsv line 2 is not URL<TAB>quality/);
  });
});

describe('crawl --history FILE.tsv: qualities as the quality source', async () => {
  const web = handWeb([
    { host: 'qa.test', pages: [{ path: '/', links: ['/1', '/2'] }, { path: '/1' }, { path: '/2' }] },
    { host: 'qb.test', pages: [{ path: '/', links: ['/1', '/2'] }, { path: '/1' }, { path: '/2' }] },
  ]);
  const { port } = await serve(web);

  it('quality takes the pages in the order of the file\'s qualities, across servers', async () => {
    const file = join(dir, 'hand.tsv');
    const q: Record<string, number> = { 'qa.test/': 1, 'qb.test/': 0.9, 'qb.test/2': 0.5, 'qa.test/1': 0.3, 'qb.test/1': 0.2, 'qa.test/2': 0.1 };
    writeFileSync(file, Object.entries(q).map(([u, v]) => `http://${u.replace('/', `:${port}/`)}\t${v}\n`).join(''));
    const { order } = await crawlOrder(dir, port, ['qa.test/', 'qb.test/'], 'quality', { policyParams: { history: file } });
    expect(order).toEqual(['qa.test/', 'qb.test/', 'qb.test/2', 'qa.test/1', 'qb.test/1', 'qa.test/2']);
  });
});
