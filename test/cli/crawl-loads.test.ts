/**
 * What a crawl's process loads before it crawls: `crawlbench crawl` without --parts must not
 * load the parallel crawl's NATS client (@nats-io/*, about fifty modules and 3-4 MiB of the
 * process's peak RSS: bench/throughput, docs/performance.md). The parallel crawl is imported
 * when --parts is given (crawl-command.ts), but a static import reaching broker.ts from the
 * crawl command's own flags once loaded the client into every crawl. The test follows the
 * static value imports of core/cli/main.ts and crawl-command.ts through the sources (an
 * `import type` is erased by the compiler, an `import()` runs only when reached) and lists the
 * packages they reach.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The value imports of one source: relative specifiers and package names. */
function valueImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const st of src.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c?.isTypeOnly) continue;
      const named = c?.namedBindings;
      const onlyTypes = c && !c.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push((st.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && !st.isTypeOnly) {
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Packages (and node: builtins) reached from these sources by static value imports. */
function packagesReached(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((e) => resolve(ROOT, e));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) {
        const ts = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (!existsSync(ts)) throw new Error(`${relative(ROOT, file)}: ${spec} has no source`);
        queue.push(ts);
      } else {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return packages;
}

describe('what a crawl loads', () => {
  it('crawlbench crawl without --parts loads no NATS client', () => {
    const reached = packagesReached([join('core', 'cli', 'main.ts'), join('core', 'cli', 'crawl-command.ts')]);
    expect(reached.has('better-sqlite3') || [...reached].some((p) => p.startsWith('node:'))).toBe(true);
    expect([...reached].filter((p) => p.startsWith('@nats-io/'))).toEqual([]);
  });

  it('the parallel crawl does load it (so the walk would see it)', () => {
    const reached = packagesReached([join('core', 'cli', 'parallel-crawl.ts')]);
    expect([...reached].filter((p) => p.startsWith('@nats-io/'))).not.toEqual([]);
  });
});
