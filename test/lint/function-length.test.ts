/**
 * No function over 80 lines. A function that long does several things; splitting it along its
 * seams (classify / record / discover, one phase per function, one function per tag) gives
 * each part a name and a size that can be read at once. The rule is checked here with the
 * TypeScript compiler's own parser, so it sees every function-like node with a body:
 * declarations, methods, arrows, function expressions, accessors and constructors.
 *
 * A Vue file's `<script setup>` runs as one function (Vue compiles it into the component's
 * setup()), so it counts as one, named `<script setup>`: its lines from the first statement
 * that runs to the last, less the imports and type declarations, which Vue lifts out of
 * setup() (as a .ts file's imports and types sit outside its functions). A plain `<script>`
 * block is read like a .ts file. Vue's own parser (vue/compiler-sfc) finds the blocks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parse as parseSfc } from 'vue/compiler-sfc';
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
    return (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.vue') ? [p] : [];
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

/** Statements Vue lifts out of setup(): imports and declarations of types only. */
function liftedOutOfSetup(node: ts.Statement): boolean {
  return ts.isImportDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node);
}

/**
 * The `<script setup>` block's body as one function: from the first line of its first statement
 * that runs to the last line of its last, less the lines of imports and types among them.
 */
function setupLines(source: ts.SourceFile): number {
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line;
  const runs = source.statements.filter((s) => !liftedOutOfSetup(s));
  if (runs.length === 0) return 0;
  const first = lineOf(runs[0]!.getStart(source));
  const last = lineOf(runs[runs.length - 1]!.getEnd());
  const lifted = source.statements
    .filter((s) => liftedOutOfSetup(s) && s.getStart(source) > runs[0]!.getStart(source) && s.getEnd() < runs[runs.length - 1]!.getEnd())
    .reduce((n, s) => n + lineOf(s.getEnd()) - lineOf(s.getStart(source)) + 1, 0);
  return last - first + 1 - lifted;
}

/**
 * Every function of a Vue file over `max` lines, at the file's own line numbers: the
 * `<script setup>` block as one function, and every function inside either script block.
 */
function longVueFunctions(fileName: string, text: string, max = MAX_LINES): LongFunction[] {
  const { descriptor } = parseSfc(text, { filename: fileName });
  const out: LongFunction[] = [];
  for (const block of [descriptor.script, descriptor.scriptSetup]) {
    if (!block) continue;
    // The block's content starts on the line of its opening tag, after the tag.
    const shift = block.loc.start.line - 1;
    const found = longFunctions(fileName, block.content, max).map((f) => ({ ...f, line: f.line + shift }));
    if (block.setup) {
      const source = ts.createSourceFile(fileName, block.content, ts.ScriptTarget.Latest, true);
      const lines = setupLines(source);
      if (lines > max) out.push({ line: block.loc.start.line, name: '<script setup>', lines });
    }
    out.push(...found);
  }
  return out;
}

/** Long functions of a .ts or a .vue file. */
function longFunctionsOf(fileName: string, text: string, max = MAX_LINES): LongFunction[] {
  return fileName.endsWith('.vue') ? longVueFunctions(fileName, text, max) : longFunctions(fileName, text, max);
}

/** A source file with one function whose declaration spans exactly `lines` lines. */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return ['// before', `export function f${lines}(): void {`, ...body, '}', '// after', ''].join('\n');
}

/**
 * A Vue file whose `<script setup>` has `lines` lines that run, among imports, an interface
 * and a type alias (which do not count), with a template before and a style after.
 */
function vueOf(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `const v${i} = ${i};`);
  return [
    '<template><p>{{ v0 }}</p></template>',
    '',
    '<script setup lang="ts">',
    "import { ref } from 'vue';",
    "import type { Ref } from 'vue';",
    'const first: Ref<number> = ref(0);',
    ...body.slice(0, 2),
    'interface Row {',
    '  a: number;',
    '}',
    ...body.slice(2),
    'type Rows = Row[];',
    'const rows: Rows = [];',
    '/** The last line that runs. */',
    'defineExpose({ first, rows });',
    '</script>',
    '',
    '<style scoped>p { margin: 0; }</style>',
    '',
  ].join('\n');
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

  it('the checker fails a Vue <script setup> of 81 lines that run and passes one of 80, imports and types not counted', () => {
    expect(longFunctionsOf('V.vue', vueOf(80))).toEqual([]);
    expect(longFunctionsOf('V.vue', vueOf(81))).toEqual([{ line: 3, name: '<script setup>', lines: 81 }]);
    // A function inside the block is still a function of its own, at the .vue file's line.
    const inner = vueOf(10).replace('const v0 = 0;', functionOf(81));
    expect(longFunctionsOf('V.vue', inner)).toEqual([
      { line: 3, name: '<script setup>', lines: 93 },
      { line: 8, name: 'f81', lines: 81 },
    ]);
  });

  it('the checker reads a plain Vue <script> block like a .ts file', () => {
    const text = `<template><p /></template>\n<script lang="ts">\n${functionOf(81)}</script>\n`;
    expect(longFunctionsOf('P.vue', text)).toEqual([{ line: 4, name: 'f81', lines: 81 }]);
    expect(longFunctionsOf('P.vue', text.replace(functionOf(81), functionOf(80)))).toEqual([]);
  });

  it(`no function in ${DIRS.join(', ')} is longer than ${MAX_LINES} lines, except the listed ones`, () => {
    const allowed = new Set(EXCEPTIONS.map((e) => e.at));
    const found: string[] = [];
    const used = new Set<string>();
    for (const file of DIRS.flatMap(files)) {
      for (const f of longFunctionsOf(file, readFileSync(join(ROOT, file), 'utf8'))) {
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
