/**
 * Deterministic text for generated pages: titles, anchor text, directory names and filler.
 * Words are lower-case letters only, so a number in a generated path is always the page
 * number (the reverse lookup relies on that).
 */
import { hash, Rng } from '../random.js';

export const WORDS: readonly string[] = (
  'about above account action active address admin advice agency agenda album alpha annual archive area ' +
  'article artist atlas audio author award basic beach board book border branch brief budget building ' +
  'business cabinet calendar campus canal capital career catalog center central chamber channel chapter ' +
  'chart choice circle citizen city civic class climate clinic club coast college column comment community ' +
  'company concert contact content council country course court culture current data debate degree delta ' +
  'design detail digital direct district doctor document domain draft economy edition editor education ' +
  'election energy engine event example exchange export faculty family farm feature festival field figure ' +
  'file film finance forest format forum founder frame fund gallery garden general global golden grant ' +
  'green group guide harbor health heritage history holiday home hospital hotel house index industry ' +
  'island issue journal justice kitchen label labor lake language league letter library light local ' +
  'market media meeting member memory metro mineral model money mountain museum music nation nature ' +
  'network news notice novel ocean office online opera order paper park partner people photo planet ' +
  'plaza policy portal press price project public quarter radio railway reader record region report ' +
  'research review river road school science season sector service share shop society software south ' +
  'sport square staff station story street student studio summer survey system table teacher team ' +
  'theater topic tourism tower trade travel union unit valley video village vision volume water weather ' +
  'winter world writer youth'
).split(' ');

export function word(h: number): string {
  return WORDS[(h >>> 0) % WORDS.length]!;
}

export function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** Three words from a hash, first capitalised: 'Harbor budget review'. */
export function phrase(h: number): string {
  return `${capitalize(word(h))} ${word(hash(h, 1))} ${word(hash(h, 2))}`;
}

/**
 * 64 KiB of sentences built once from a fixed seed. Pages take filler as slices at a
 * per-page offset, which makes rendering a 10 KB page a few string slices instead of
 * thousands of random draws.
 */
let fillerBlock: string | undefined;
export const FILLER_LENGTH = 65536;

export function filler(): string {
  if (fillerBlock !== undefined) return fillerBlock;
  const rng = new Rng(20240229);
  const parts: string[] = [];
  let len = 0;
  while (len < FILLER_LENGTH + 1024) {
    const n = 5 + rng.int(12);
    let s = capitalize(WORDS[rng.int(WORDS.length)]!);
    for (let i = 1; i < n; i++) s += ' ' + WORDS[rng.int(WORDS.length)]!;
    s += '. ';
    parts.push(s);
    len += s.length;
  }
  fillerBlock = parts.join('').slice(0, FILLER_LENGTH);
  return fillerBlock;
}

/** `n` characters of filler text starting at a hash-chosen offset (wrapping around). */
export function fillerText(h: number, n: number): string {
  const block = filler();
  let off = (h >>> 0) % FILLER_LENGTH;
  let out = '';
  while (n > 0) {
    const take = Math.min(n, FILLER_LENGTH - off);
    out += block.slice(off, off + take);
    n -= take;
    off = 0;
  }
  return out;
}
