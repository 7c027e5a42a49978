import { words, type PageText } from './page-text.js';

/**
 * IS(P, Q), Cho, Garcia-Molina and Page §2: P and Q as vectors whose i-th term is the number
 * of times word i occurs in the document times the word's idf, "one divided by the number of
 * times the word appears in the entire document collection"; the similarity is their inner
 * product. Q's vector is zero outside the query's words, so only they are counted:
 *   IS(P, Q) = Σ over words w of Q of tf(w, P) · tf(w, Q) / cf(w)²,  cf(w) = Σ_P tf(w, P).
 * The collection is the documents given (a page's title and body text); cf is exact, since
 * the crawl is over (the paper's IS, not its estimate IS').
 */
export function similarityScores(docs: Iterable<{ id: number } & PageText>, query: string): Map<number, number> {
  const q = termCounts(words(query));
  const cf = new Map<string, number>();
  // Pass one: each document's counts of the query's words (only documents having some), and cf.
  const counts: Array<{ id: number; tf: Map<string, number> }> = [];
  const ids: number[] = [];
  for (const doc of docs) {
    ids.push(doc.id);
    const tf = new Map<string, number>();
    for (const w of words(doc.body === null ? doc.title : `${doc.title} ${doc.body}`)) {
      if (q.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
    }
    if (tf.size === 0) continue;
    counts.push({ id: doc.id, tf });
    for (const [w, n] of tf) cf.set(w, (cf.get(w) ?? 0) + n);
  }
  const out = new Map<number, number>();
  for (const id of ids) out.set(id, 0);
  for (const { id, tf } of counts) {
    let s = 0;
    for (const [w, n] of tf) s += (n * q.get(w)!) / cf.get(w)! ** 2;
    out.set(id, s);
  }
  return out;
}

function termCounts(ws: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Occurrences in the body for a page to be hot without the word in its title (§7: "more than 10"). */
export const TOPIC_BODY_COUNT = 10;

/**
 * Cho et al.'s hot page for a topic (§7): the word in its title, or more than ten times in its
 * body. Without a body (no stored content) only the title can make a page hot.
 */
export function topicHotByContent(text: PageText, word: string): boolean {
  const w = word.toLowerCase();
  if (words(text.title).includes(w)) return true;
  if (text.body === null) return false;
  let n = 0;
  for (const x of words(text.body)) if (x === w && ++n > TOPIC_BODY_COUNT) return true;
  return false;
}
