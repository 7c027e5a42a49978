import { describe, expect, it } from 'vitest';
import { csrFromEdges } from '../../core/ranking/csr.js';
import { backlinkCounts, countHot, hotPages, irValues, locationScore, paperThreshold } from '../../core/ranking/importance.js';
import { kendallTauB } from '../../core/ranking/kendall.js';
import { kendallTauSample } from '../../core/ranking/kendall-sample.js';
import { htmlText } from '../../core/ranking/page-text.js';
import { similarityScores, topicHotByContent } from '../../core/ranking/similarity.js';

// 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 0, 3 -> 2: page 2 has three backlinks, page 3 none.
const g = csrFromEdges(4, [0, 0, 1, 2, 3], [1, 2, 2, 0, 2]);

describe("Cho et al.'s importance metrics on hand-computed graphs", () => {
  it('IB(P) counts the pages linking to P', () => {
    expect([...backlinkCounts(g)]).toEqual([1, 1, 3, 0]);
  });

  it('IR(P) with d = 0.9 solves IR(P) = 0.1 + 0.9 Σ IR(T)/c and sums to N', () => {
    // By hand: IR3 = 0.1; IR1 = 0.1 + 0.45 IR0; IR2 = 0.1 + 0.9 (IR0/2 + IR1 + IR3); IR0 = 0.1 + 0.9 IR2
    // => IR0 = 0.352 / 0.2305.
    const ir = irValues(g, { tolerance: 1e-14 });
    const ir0 = 0.352 / 0.2305;
    const expected = [ir0, 0.1 + 0.45 * ir0, 0.28 + 0.855 * ir0, 0.1];
    expected.forEach((x, i) => expect(ir[i]).toBeCloseTo(x, 10));
    expect(ir.reduce((a, b) => a + b, 0)).toBeCloseTo(4, 10);
    const one = irValues(g, { tolerance: 1e-14, scale: '1' });
    expected.forEach((x, i) => expect(one[i]).toBeCloseTo(x / 4, 10));
  });

  it('IR: a page without out-links links to every page (itself included)', () => {
    // 0 -> 1, 1 dangling: IR0 = 0.1 + 0.9 IR1/2, IR1 = 0.1 + 0.9 (IR0 + IR1/2) => IR1 = 0.19/0.145.
    const ir = irValues(csrFromEdges(2, [0], [1]), { tolerance: 1e-14 });
    const ir1 = 0.19 / 0.145;
    expect(ir[1]).toBeCloseTo(ir1, 10);
    expect(ir[0]).toBeCloseTo(0.1 + 0.45 * ir1, 10);
    expect(ir[0]! + ir[1]!).toBeCloseTo(2, 10);
  });

  it('hot pages are judged on the raw scale: IB >= 3 is page 2 alone; IR >= 1.5 pages 0 and 2', () => {
    expect([...hotPages(backlinkCounts(g), 3)]).toEqual([0, 0, 1, 0]);
    const ir = irValues(g, { tolerance: 1e-14 });
    expect([...hotPages(ir, 1.5)]).toEqual([1, 0, 1, 0]);
    expect(countHot(ir, 1.5)).toBe(2);
    expect(countHot(backlinkCounts(g), 1)).toBe(3);
  });

  it("the paper's thresholds: G = 100 for IB, G = 13 for IR with d = 0.9 summing to N, none otherwise", () => {
    expect(paperThreshold('backlinks', 0.9, 'n')).toBe(100);
    expect(paperThreshold('ir', 0.9, 'n')).toBe(13);
    expect(paperThreshold('ir', 0.85, 'n')).toBeNull();
    expect(paperThreshold('ir', 0.9, '1')).toBeNull();
  });

  it('IL(P): fewer slashes score higher; .com hosts and URLs with "home" score 1', () => {
    expect(locationScore('http://a.test/')).toBe(-1);
    expect(locationScore('http://a.test/x/y.html')).toBe(-2);
    expect(locationScore('http://a.test/x/y/')).toBe(-3);
    expect(locationScore('http://shop.example.com/a', 'com')).toBe(1);
    expect(locationScore('http://example.org/a.com', 'com')).toBe(0);
    expect(locationScore('http://a.test/~joe/Home.html', 'home')).toBe(1);
    expect(locationScore('http://a.test/about.html', 'home')).toBe(0);
  });

  it('IS(P, Q) is the inner product of tf·idf vectors, idf = 1 / occurrences in the collection', () => {
    const docs = [
      { id: 1, title: 'Computer science', body: 'computer, computer lab' },
      { id: 2, title: 'Lab', body: 'a computer' },
      { id: 3, title: 'Garden', body: null },
    ];
    // "computer": tf 3, 1, 0, cf 4 => 3/16, 1/16, 0.
    const one = similarityScores(docs, 'computer');
    expect([...one.entries()]).toEqual([[1, 3 / 16], [2, 1 / 16], [3, 0]]);
    // "computer lab": lab has tf 1, 1, cf 2 => adds 1/4 to both.
    const two = similarityScores(docs, 'Computer LAB');
    expect(two.get(1)).toBeCloseTo(3 / 16 + 1 / 4, 15);
    expect(two.get(2)).toBeCloseTo(1 / 16 + 1 / 4, 15);
    // A word twice in the query counts twice (tf in Q).
    expect(similarityScores(docs, 'computer computer').get(1)).toBeCloseTo(6 / 16, 15);
  });

  it('a page is hot for a topic with the word in its title or more than ten times in its body', () => {
    expect(topicHotByContent({ title: 'Computer museum', body: '' }, 'computer')).toBe(true);
    expect(topicHotByContent({ title: 'Museum', body: 'computer '.repeat(11) }, 'computer')).toBe(true);
    expect(topicHotByContent({ title: 'Museum', body: 'computer '.repeat(10) }, 'computer')).toBe(false);
    expect(topicHotByContent({ title: 'Museum', body: null }, 'computer')).toBe(false);
    expect(topicHotByContent({ title: 'Computers', body: null }, 'computer')).toBe(false); // a word, not a substring
  });

  it('the text of an HTML page: its title, and its body without scripts or styles', () => {
    const t = htmlText('<html><head><title>A &amp; B</title><style>p{}</style></head><body><p>one</p><script>x=1</script> two</body></html>');
    expect(t).toEqual({ title: 'A & B', body: 'one two' });
  });
});

describe("Kendall's tau on a sample (Castillo's 5,000 pages)", () => {
  it('is the exact tau-b when the sample holds every page, and repeats for a seed', () => {
    const x = Array.from({ length: 50 }, (_, i) => -i);
    const y = Array.from({ length: 50 }, (_, i) => (i * 37) % 50);
    expect(kendallTauSample(x, y, 5000)).toBe(kendallTauB(x, y));
    const n = 20_000;
    const xs = Float64Array.from({ length: n }, (_, i) => -i);
    const ys = Float64Array.from({ length: n }, (_, i) => n - i + ((i * 7919) % 5000)); // mostly decreasing
    const a = kendallTauSample(xs, ys, 5000, 7);
    expect(kendallTauSample(xs, ys, 5000, 7)).toBe(a);
    expect(kendallTauSample(xs, ys, 5000, 8)).not.toBe(a);
    expect(Math.abs(a - kendallTauB(xs, ys))).toBeLessThan(0.03);
  });
});
