/**
 * The code and the docs cite the design as "docs/design.md section N" (or "§N", or a
 * subsection "section N.M"), so a reader can go from a rule in the code to its definition and
 * its source in the papers. This test keeps those citations true: docs/design.md exists with
 * numbered sections (`## N. Title`, `### N.M Title`), every citation names one of them, every
 * mention of the design names it by its path in the repository (`docs/design.md`, not a
 * summary outside the clone), and the design's own cross-references ("see section N.M") land.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const DESIGN = 'docs/design.md';
const PLACES = ['README.md', 'package.json', 'docs', 'core', 'renderer', 'electron', 'bin', 'bench', 'scripts', 'resources'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'out', 'release', 'artifacts']);
const TEXT = /\.(md|ts|vue|js|mjs|cjs|json|sh|c|h|yml|yaml|html|css|txt)$/;

/** The numbered sections and subsections of the design, as "2" and "2.3". */
export function designSections(markdown: string): { numbers: Set<string>; problems: string[] } {
  const numbers = new Set<string>();
  const problems: string[] = [];
  let top = 0;
  let sub = 0;
  markdown.split('\n').forEach((line, i) => {
    const h2 = /^## (\d+)\. \S/.exec(line);
    const h3 = /^### (\d+)\.(\d+) \S/.exec(line);
    if (h2) {
      const n = Number(h2[1]);
      if (n !== top + 1) problems.push(`${DESIGN}:${i + 1}: section ${n} follows section ${top}`);
      top = n;
      sub = 0;
      numbers.add(String(n));
    } else if (h3) {
      const [n, m] = [Number(h3[1]), Number(h3[2])];
      if (n !== top || m !== sub + 1) problems.push(`${DESIGN}:${i + 1}: subsection ${n}.${m} follows ${top}.${sub}`);
      sub = m;
      numbers.add(`${n}.${m}`);
    } else if (/^#{2,3} /.test(line)) {
      problems.push(`${DESIGN}:${i + 1}: heading without a number: ${line}`);
    }
  });
  return { numbers, problems };
}

export interface Citation {
  line: number;
  /** The section named, or null for a mention of the design without one. */
  section: string | null;
  /** How the design is named: 'docs/design.md', or what was written instead. */
  path: string;
}

/**
 * Every mention of design.md in a file, with the section it names when one follows
 * ("docs/design.md section 2", "docs/design.md §2", "docs/design.md, section 6.3", also across
 * a comment's line break: "docs/design.md\n * section 3").
 */
export function citations(text: string): Citation[] {
  const out: Citation[] = [];
  const re = /(?<![\w./-])((?:[\w.-]+\/)*design\.md)(?:[\s*#/,(]*(?:section|§)\s*(\d+(?:\.\d+)?))?/g;
  for (const m of text.matchAll(re)) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push({ line, section: m[2] ?? null, path: m[1]! });
  }
  return out;
}

/** The design's references to its own sections: "section N" or "sections N.M", lower-case (papers' sections are written §). */
export function selfReferences(markdown: string): Array<{ line: number; section: string }> {
  const out: Array<{ line: number; section: string }> = [];
  markdown.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\bsections? (\d+(?:\.\d+)?)/g)) out.push({ line: i + 1, section: m[1]! });
  });
  return out;
}

function files(place: string): string[] {
  const abs = join(ROOT, place);
  let st;
  try {
    st = statSync(abs);
  } catch {
    return [];
  }
  if (st.isFile()) return TEXT.test(place) ? [place] : [];
  return readdirSync(abs).flatMap((name) => (SKIP_DIRS.has(name) ? [] : files(join(place, name))));
}

describe('citations of docs/design.md', () => {
  it('reads sections and citations as written', () => {
    const { numbers, problems } = designSections('# T\n## 1. A\n### 1.1 B\n### 1.2 C\n## 2. D\n');
    expect([...numbers]).toEqual(['1', '1.1', '1.2', '2']);
    expect(problems).toEqual([]);
    expect(designSections('## 1. A\n## 3. B\n### 3.2 C\n## Notes\n').problems).toHaveLength(3);
    expect(citations('a (docs/design.md section 2.3: w)\n * see docs/design.md\n * section 3.1).\nb docs/design.md §7: c')).toEqual([
      { line: 1, section: '2.3', path: 'docs/design.md' },
      { line: 2, section: '3.1', path: 'docs/design.md' },
      { line: 4, section: '7', path: 'docs/design.md' },
    ]);
    expect(citations('as ../shared/design.md says; the design.md rules')).toEqual([
      { line: 1, section: null, path: '../shared/design.md' },
      { line: 1, section: null, path: 'design.md' },
    ]);
    expect(selfReferences('as section 2.3 says, and sections 4.1 to 4.2; §4.3 of the thesis')).toEqual([
      { line: 1, section: '2.3' },
      { line: 1, section: '4.1' },
    ]);
  });

  it('docs/design.md has numbered sections, in order, and its own cross-references land', () => {
    const text = readFileSync(join(ROOT, DESIGN), 'utf8');
    const { numbers, problems } = designSections(text);
    // The topics the code cites by number since before this file existed keep their numbers.
    for (const n of ['1', '2', '3', '4', '5', '6', '7']) expect(numbers.has(n), `section ${n} missing`).toBe(true);
    for (const r of selfReferences(text)) if (!numbers.has(r.section)) problems.push(`${DESIGN}:${r.line}: section ${r.section} does not exist`);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('every citation in the code and the docs names docs/design.md and an existing section', () => {
    const { numbers } = designSections(readFileSync(join(ROOT, DESIGN), 'utf8'));
    const bad: string[] = [];
    for (const place of PLACES) {
      for (const file of files(place)) {
        if (file === DESIGN) continue;
        for (const c of citations(readFileSync(join(ROOT, file), 'utf8'))) {
          if (c.path !== DESIGN) bad.push(`${file}:${c.line}: names ${c.path}; write docs/design.md`);
          if (c.section !== null && !numbers.has(c.section)) bad.push(`${file}:${c.line}: docs/design.md has no section ${c.section}`);
        }
      }
    }
    expect(bad, bad.join('\n')).toEqual([]);
  });
});
