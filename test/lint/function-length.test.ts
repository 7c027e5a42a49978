/**
 * No function over 80 lines. A function that long does several things; splitting it along its
 * seams (classify / record / discover, one phase per function, one function per tag) gives
 * each part a name and a size that can be read at once. The rule is checked here with the
 * TypeScript compiler's own parser, so it sees every function-like node with a body:
 * declarations, methods, arrows, function expressions, accessors and constructors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const DIRS = ['core', 'electron', 'renderer', 'bench'];
const MAX_LINES = 80;

/**
 * Functions allowed to be longer, as `file:name`, each with the reason. Keep it to the truly
 * justified: a long function is almost always several functions.
 */
const EXCEPTIONS: ReadonlyArray<{ at: string; reason: string }> = [];

interface LongFunction {
  line: number;
  name: string;
  lines: number;
}

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'node_modules') return [];
    if (statSync(join(ROOT, p)).isDirectory()) return files(p);
    return f.endsWith('.ts') && !f.endsWith('.d.ts') ? [p] : [];
  });
}

/** The name a reader would look for: the function's own, else what it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  return '<anonymous>';
}

/** Every function-like node with a body longer than `max` lines, first line to last. */
function longFunctions(fileName: string, text: string, max = MAX_LINES): LongFunction[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) out.push({ line: first + 1, name: nameOf(fn, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A source file with one function whose declaration spans exactly `lines` lines. */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return ['// before', `export function f${lines}(): void {`, ...body, '}', '// after', ''].join('\n');
}

describe('function length', () => {
  it('the checker fails an 81-line function and passes an 80-line one, in every form', () => {
    expect(longFunctions('a.ts', functionOf(80))).toEqual([]);
    expect(longFunctions('a.ts', functionOf(81))).toEqual([{ line: 2, name: 'f81', lines: 81 }]);
    const body = Array.from({ length: 79 }, (_, i) => `    x += ${i};`).join('\n');
    const forms = [
      `class C {\n  m(): void {\n    let x = 0;\n${body}\n  }\n}`,
      `const arrow = (): void => {\n  let x = 0;\n${body}\n};`,
      `class C {\n  get g(): number {\n    let x = 0;\n${body}\n    return x;\n  }\n}`,
      `class C {\n  constructor() {\n    let x = 0;\n${body}\n  }\n}`,
      `const o = { p: function (): void {\n  let x = 0;\n${body}\n} };`,
    ];
    expect(forms.map((f) => longFunctions('b.ts', f).map((l) => l.name))).toEqual([['m'], ['arrow'], ['g'], ['constructor'], ['p']]);
  });

  it(`no function in ${DIRS.join(', ')} is longer than ${MAX_LINES} lines, except the listed ones`, () => {
    const allowed = new Set(EXCEPTIONS.map((e) => e.at));
    const found: string[] = [];
    const used = new Set<string>();
    for (const file of DIRS.flatMap(files)) {
      for (const f of longFunctions(file, readFileSync(join(ROOT, file), 'utf8'))) {
        const at = `${file}:${f.name}`;
        if (allowed.has(at)) used.add(at);
        else found.push(`${file}:${f.line} ${f.name} (${f.lines} lines)`);
      }
    }
    expect(found).toEqual([]);
    // An exception whose function got shorter (or went away) is no longer needed.
    expect(EXCEPTIONS.map((e) => e.at).filter((at) => !used.has(at))).toEqual([]);
  });
});
