/**
 * The layering rules, checked (as VS Code lints its common/node/browser/electron-main layers)
 * instead of left to review.
 *
 * core/ is layered. A module (a folder of core/, or one of its top-level files) may import any
 * module of a lower layer, and within its own layer only the modules this table lists. The same
 * table is in docs/architecture.md, section "Layers"; a test below keeps the two equal.
 *
 *   layer  module     may import within its layer
 *   0      errors     -
 *   0      random     -          seeded generators and hashes: the one mulberry32
 *   0      page-array -          a number per page id, in chunks (store, scheduler, policies)
 *   0      numbering  -          names numbered in the order first asked (statements, site keys, graph sites)
 *   0      temp-name  -          a file's temporary name before its rename, unique per writer (process, thread)
 *   0      folders    -          folders made for outputs, one mkdir a level (Node's recursive one spins under /proc)
 *   0      process-alive -       whether a process named in a file still runs
 *   0      config     errors
 *   0      url        errors
 *   1      store      -
 *   1      dataset    -
 *   1      fetch      -
 *   1      parse      fetch      page-parser decodes bodies with fetch/decode
 *   1      robots     -
 *   1      ranking    store,     reads crawls through the store, page text through parse
 *                      parse
 *   1      testweb    dataset    writes and reads graph files
 *   2      scheduler  -          owns the Policy interface (as Heritrix's frontier owns its policies)
 *   3      policies   -
 *   4      engine     -
 *   4      simulator  -
 *   4      compare    -
 *   4      export     -
 *   4      graph      -
 *   5      api        -
 *   5      parallel   -          the parallel crawl's workers, coordinator and broker
 *   5      reproduce  -          the papers' experiments, run as the single commands run them
 *   5      cli        api, parallel,
 *                      reproduce
 *
 * And:
 *  - only api, cli and reproduce import testweb: the engine and the simulator never depend on the test web;
 *  - the frontier (scheduler, policies) reaches no database, not even through another module:
 *    a policy gets an earlier crawl's PageRank from PolicyContext.loadHistory, which the engine
 *    and the simulator provide;
 *  - core/config/limits.ts and core/api/limits.ts import nothing (the renderer bundles them);
 *  - no import cycle between files of core/.
 * Every import counts: `import`, `import type`, `export ... from`, `import()` and
 * `typeof import()`. A cycle of types is still a cycle of design.
 *
 * Outside core: core imports no UI framework and no Electron (but ECharts' server-side SVG renderer,
 * in core/reproduce/charts.ts alone: reproduce draws the papers' figures without a browser); the renderer reaches core only
 * through the browser-safe modules (types, the one RPC client, the limits tables), and those
 * import nothing from Node or the engine.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** module -> [layer, modules of the same layer it may import]. */
const LAYERS: Record<string, [number, string[]]> = {
  errors: [0, []],
  random: [0, []],
  'page-array': [0, []],
  numbering: [0, []],
  'temp-name': [0, []],
  folders: [0, []],
  'process-alive': [0, []],
  config: [0, ['errors']],
  url: [0, ['errors']],
  store: [1, []],
  dataset: [1, []],
  fetch: [1, []],
  parse: [1, ['fetch']],
  robots: [1, []],
  ranking: [1, ['store', 'parse']],
  testweb: [1, ['dataset']],
  scheduler: [2, []],
  policies: [3, []],
  engine: [4, []],
  simulator: [4, []],
  compare: [4, []],
  export: [4, []],
  graph: [4, []],
  api: [5, []],
  parallel: [5, []],
  reproduce: [5, []],
  cli: [5, ['api', 'parallel', 'reproduce']],
};
const TESTWEB_USERS = ['api', 'cli', 'reproduce'];
const NO_DATABASE = ['scheduler', 'policies'];
/** The one core file that draws charts (ECharts' server-side SVG renderer, no DOM). */
const SSR_CHARTS = 'core/reproduce/charts.ts';
const IMPORT_FREE = ['core/config/limits.ts', 'core/api/limits.ts'];

const ROOT = new URL('../../', import.meta.url).pathname;
/** The engine's result types the features' contracts carry (each imports nothing but these). */
const RESULT_TYPES = ['core/engine/stats-report.ts', 'core/store/timeline-point.ts', 'core/ranking/report.ts', 'core/compare/report.ts', 'core/graph/report.ts', 'core/simulator/report.ts'];
/** One contract a feature (core/api/contracts/), joined by core/api/contract.ts. */
const FEATURE_CONTRACTS = ['shared', 'crawls', 'live', 'sites', 'results', 'compare', 'export', 'partition', 'simulate', 'parallel'].map((f) => `core/api/contracts/${f}.ts`);
/**
 * The request schemas the forms check with (issue 24): the only browser-safe modules that may
 * import a package, zod. The transports and the contract never import them, so Electron's
 * preload (ipc.ts, rpc-server.ts) stays free of zod.
 */
const REQUEST_SCHEMAS = ['core/config/request-words.ts', 'core/config/limit-schema.ts', 'core/simulator/request-schema.ts', 'core/graph/request-schema.ts', 'core/compare/request-schema.ts', 'core/api/page-request-schema.ts', 'core/export/request-schema.ts', 'core/api/sites-request-schema.ts', 'core/api/create-request-schema.ts', 'core/api/limit-schemas.ts'];
// A parallel crawl's K, model and assignment (issue 25).
REQUEST_SCHEMAS.push('core/api/parallel-request-schema.ts');
// The measure of an evaluation or a simulation, and the evaluation's request (issue 27).
REQUEST_SCHEMAS.push('core/ranking/request-schema.ts');
const BROWSER_SAFE = [
  'core/config/limits.ts', 'core/api/limits.ts', 'core/config/pem-blocks.ts', ...RESULT_TYPES,
  // The topic policy's orderings, which the simulation schema checks (issue 27): a list, no import.
  'core/policies/topic-orders.ts', 'core/api/contract.ts', ...FEATURE_CONTRACTS,
  'core/api/rpc.ts', 'core/api/rpc-client.ts', 'core/api/ws-client.ts', 'core/api/ipc.ts', 'core/api/rpc-server.ts',
  ...REQUEST_SCHEMAS,
];

/** Every module specifier a TypeScript source names, type-only ones included (memoized: planted tests reparse core). */
const parsed = new Map<string, string[]>();
function specifiers(source: string): string[] {
  const known = parsed.get(source);
  if (known) return known;
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text); // typeof import('./x.js'), import('./x.js').T
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      out.push(node.arguments[0].text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      out.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  parsed.set(source, out);
  return out;
}

/** One import: a repository path (relative specifiers, resolved, .js read as .ts) or a package. */
interface Edge {
  to: string;
  local: boolean;
}

/** The import graph of the core files among `sources` (path from the repository root -> text). */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const [file, text] of sources) {
    if (!file.startsWith('core/') || !file.endsWith('.ts')) continue;
    graph.set(
      file,
      specifiers(text).map((spec) =>
        spec.startsWith('.') ? { to: posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts'), local: true } : { to: spec, local: false },
      ),
    );
  }
  return graph;
}

/** core/errors.ts -> errors, core/url/scope.ts -> url; null outside core/. */
function moduleOf(path: string): string | null {
  const m = /^core\/([^/]+?)(\.ts)?(\/|$)/.exec(path);
  return m ? m[1]! : null;
}

/** Why module `from` may not import module `to`, or null if the map allows it. */
function forbidden(from: string, to: string): string | null {
  if (!LAYERS[to]) return `${to} is in no layer`;
  if (to === 'testweb' && !TESTWEB_USERS.includes(from)) return `only ${TESTWEB_USERS.join(' and ')} import testweb`;
  const [lf, within] = LAYERS[from]!;
  const lt = LAYERS[to]![0];
  if (lt < lf || (lt === lf && within.includes(to))) return null;
  return `${from} (layer ${lf}) may not import ${to} (layer ${lt})`;
}

const isDatabase = (e: Edge) => (e.local ? e.to.startsWith('core/store/') : e.to === 'better-sqlite3' || e.to.startsWith('better-sqlite3/'));

/** The shortest chain of imports from `file` to a database, or null. */
function databaseChain(graph: ReadonlyMap<string, Edge[]>, file: string): string[] | null {
  const parent = new Map<string, string | null>([[file, null]]);
  const queue = [file];
  const chainTo = (last: string, end: string) => {
    const chain = [end];
    for (let f: string | null = last; f !== null; f = parent.get(f)!) chain.unshift(f);
    return chain;
  };
  while (queue.length > 0) {
    const f = queue.shift()!;
    for (const e of graph.get(f) ?? []) {
      if (isDatabase(e)) return chainTo(f, e.to);
      if (e.local && graph.has(e.to) && !parent.has(e.to)) {
        parent.set(e.to, f);
        queue.push(e.to);
      }
    }
  }
  return null;
}

/** Every import the map forbids, one line each, naming the file and the rule. */
function layerProblems(graph: ReadonlyMap<string, Edge[]>): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    const from = moduleOf(file)!;
    if (!LAYERS[from]) {
      problems.push(`${file}: module ${from} is in no layer (add it to LAYERS and to docs/architecture.md)`);
      continue;
    }
    if (IMPORT_FREE.includes(file) && edges.length > 0) problems.push(`${file} must import nothing (the renderer bundles it) but imports ${edges.map((e) => e.to).join(', ')}`);
    for (const e of edges) {
      if (!e.local) continue;
      const to = moduleOf(e.to);
      if (to === null) problems.push(`${file} imports ${e.to}, outside core/`);
      else if (to !== from) {
        const why = forbidden(from, to);
        if (why) problems.push(`${file} imports ${e.to}: ${why}`);
      }
    }
    if (NO_DATABASE.includes(from)) {
      const chain = databaseChain(graph, file);
      if (chain) problems.push(`${file} reaches a database (${chain.join(' -> ')}): the frontier reads history through PolicyContext.loadHistory, never from a store`);
    }
  }
  return problems;
}

/** Cycles between files: every back edge of a depth-first walk, as the chain it closes. */
function importCycles(graph: ReadonlyMap<string, Edge[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    stack.push(f);
    for (const e of graph.get(f) ?? []) {
      if (!e.local || !graph.has(e.to)) continue;
      if (state.get(e.to) === 'open') found.push([...stack.slice(stack.indexOf(e.to)), e.to].join(' -> '));
      else if (!state.has(e.to)) visit(e.to);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return found;
}

function files(dir: string, exts: string[]): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? files(p, exts) : exts.some((e) => f.endsWith(e)) ? [p] : [];
  });
}

/** The source of a file; for a .vue file, its <script> blocks. */
function source(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return file.endsWith('.vue') ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
}

const core = new Map(files('core', ['.ts']).map((f) => [f, source(f)]));

/** The real core with `line` added at the top of `file` (in memory only). */
function planted(file: string, line: string): Map<string, string> {
  const sources = new Map(core);
  sources.set(file, `${line}\n${sources.get(file) ?? ''}`);
  return sources;
}

describe('core layers', () => {
  it('every core file keeps to the layer map', () => {
    expect(layerProblems(importGraph(core))).toEqual([]);
  });

  it('no import cycle in core/', () => {
    expect(importCycles(importGraph(core))).toEqual([]);
  });

  it('the map itself: same-layer imports stay in their layer and form no cycle; docs/architecture.md shows the same table', () => {
    for (const [m, [layer, within]] of Object.entries(LAYERS)) for (const w of within) expect(LAYERS[w]?.[0], `${m} -> ${w}`).toBe(layer);
    const sources = new Map(Object.entries(LAYERS).map(([m, [, within]]) => [`core/${m}.ts`, within.map((w) => `import './${w}.js';`).join('\n')]));
    expect(importCycles(importGraph(sources))).toEqual([]);
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const rows = [...doc.matchAll(/^\|\s*(\d+)\s*\|\s*([\w-]+)\s*\|([^|]*)\|/gm)].map((m) => [m[2], [Number(m[1]), m[3]!.split(/[,\s]+/).filter((w) => /^\w+$/.test(w))]]);
    expect(Object.fromEntries(rows)).toEqual(LAYERS);
  });

  it('a planted wrong import fails it, whatever form the import takes', () => {
    const line = (file: string, text: string) => layerProblems(importGraph(planted(file, text))).filter((p) => p.startsWith(file));
    expect(line('core/url/canonical.ts', "import type { Crawler } from '../engine/crawler.js';")).toEqual([
      'core/url/canonical.ts imports core/engine/crawler.ts: url (layer 0) may not import engine (layer 4)',
    ]);
    for (const form of [
      "export type { Crawler } from '../engine/crawler.js';",
      "export * as crawler from '../engine/crawler.js';",
      "const load = () => import('../engine/crawler.js');",
      "type C = typeof import('../engine/crawler.js');",
      "import '../engine/crawler.js';",
    ]) {
      expect(line('core/url/percent.ts', form), form).toEqual(['core/url/percent.ts imports core/engine/crawler.ts: url (layer 0) may not import engine (layer 4)']);
    }
    // A comment or a string is not an import.
    expect(line('core/url/percent.ts', "// import { x } from '../engine/crawler.js';\nconst s = \"import '../engine/crawler.js'\";")).toEqual([]);
    // Same layer without a listed edge: errors imports nothing.
    expect(line('core/errors.ts', "import type { Limits } from './config/limits.js';")).toEqual(['core/errors.ts imports core/config/limits.ts: errors (layer 0) may not import config (layer 0)']);
    // Downward, allowed.
    expect(line('core/engine/stats.ts', "import { pagerank } from '../ranking/pagerank.js';")).toEqual([]);
  });

  it('a planted import of testweb, of a database from the frontier, into limits.ts or outside core fails it', () => {
    const problems = (file: string, text: string) => layerProblems(importGraph(planted(file, text))).filter((p) => p.startsWith(file));
    expect(problems('core/simulator/event-queue.ts', "import type { Web } from '../testweb/web.js';")).toEqual(['core/simulator/event-queue.ts imports core/testweb/web.ts: only api and cli and reproduce import testweb']);
    expect(problems('core/api/demo-webs.ts', "import type { Web } from '../testweb/web.js';")).toEqual([]);
    expect(problems('core/policies/breadth-first.ts', "import { rankCrawl } from '../ranking/rank-crawl.js';")).toEqual([
      expect.stringMatching(/^core\/policies\/breadth-first\.ts reaches a database \(core\/policies\/breadth-first\.ts -> core\/ranking\/rank-crawl\.ts -> (core\/store\/|better-sqlite3)/),
    ]);
    expect(problems('core/scheduler/clock.ts', "import type Database from 'better-sqlite3';")).toEqual([
      expect.stringMatching(/^core\/scheduler\/clock\.ts reaches a database \(core\/scheduler\/clock\.ts -> better-sqlite3\)/),
    ]);
    expect(problems('core/config/limits.ts', "import type { ErrorCode } from '../errors.js';")).toEqual([
      'core/config/limits.ts must import nothing (the renderer bundles it) but imports core/errors.ts',
    ]);
    expect(problems('core/engine/stats.ts', "import type { App } from '../../renderer/App.vue';")).toEqual(['core/engine/stats.ts imports renderer/App.vue, outside core/']);
    const fake = new Map([['core/misc/thing.ts', '']]);
    expect(layerProblems(importGraph(fake))).toEqual(['core/misc/thing.ts: module misc is in no layer (add it to LAYERS and to docs/architecture.md)']);
  });

  it('a planted cycle, of types only, fails it', () => {
    const fake = new Map([
      ['core/fetch/fetcher.ts', "import { HttpConnection } from './http-connection.js';"],
      ['core/fetch/http-connection.ts', "import type { Connection } from './fetcher.js';\nimport { CrawlError } from '../errors.js';"],
      ['core/errors.ts', ''],
    ]);
    expect(importCycles(importGraph(fake))).toEqual(['core/fetch/fetcher.ts -> core/fetch/http-connection.ts -> core/fetch/fetcher.ts']);
    const real = importCycles(importGraph(planted('core/url/canonical.ts', "import type { Crawler } from '../engine/crawler.js';")));
    expect(real.filter((c) => c.includes('core/url/canonical.ts -> core/engine/crawler.ts'))).not.toEqual([]);
  });
});

describe('UI layers', () => {
  it('core imports no UI framework and no Electron', () => {
    for (const [f, edges] of importGraph(core)) {
      for (const e of edges) {
        if (f === SSR_CHARTS && e.to === 'echarts') continue;
        expect(`${f}: ${e.to}`).not.toMatch(/: (electron|vue|pinia|echarts|vue-router)(\/|$)/);
      }
    }
  });

  it('the renderer imports from core only the browser-safe API modules', () => {
    for (const f of files('renderer', ['.ts', '.vue'])) {
      for (const spec of specifiers(source(f))) {
        if (!spec.includes('core/')) continue;
        const target = relative(ROOT, join(ROOT, f, '..', spec)).replace(/\.js$/, '.ts');
        expect(BROWSER_SAFE, `${f} imports ${spec}`).toContain(target);
      }
    }
  });

  it('the contract and the transports import no request schema (the preload bundles them without zod)', () => {
    for (const f of BROWSER_SAFE.filter((x) => !REQUEST_SCHEMAS.includes(x))) {
      for (const spec of specifiers(source(f))) {
        const target = relative(ROOT, join(ROOT, f, '..', spec)).replace(/\.js$/, '.ts');
        expect(REQUEST_SCHEMAS, `${f} imports ${spec}`).not.toContain(target);
      }
    }
  });

  it('each feature contract of core/api/contracts/ is listed as browser-safe', () => {
    expect(files('core/api/contracts', ['.ts']).sort()).toEqual([...FEATURE_CONTRACTS].sort());
  });

  it('the browser-safe API modules import nothing from Node or the engine', () => {
    // They may import one another (relative specifiers), nothing else; a request schema zod too.
    for (const f of BROWSER_SAFE) {
      for (const spec of specifiers(source(f))) {
        if (spec === 'zod' && REQUEST_SCHEMAS.includes(f)) continue;
        expect(spec, `${f} imports ${spec}`).toMatch(/^\.\.?\//);
        const target = relative(ROOT, join(ROOT, f, '..', spec)).replace(/\.js$/, '.ts');
        expect(BROWSER_SAFE, `${f} imports ${spec}`).toContain(target);
      }
    }
  });
});
