/**
 * The crawl schema is known in one place: no code in core/ outside core/store/ prepares a
 * statement, runs SQL, holds SQL text against the crawl's tables or opens SQLite itself.
 * The scanner parses each file with the TypeScript compiler (so regular expressions'
 * .exec(text) and prose in comments are not mistaken for SQL) and is shown to catch
 * planted queries, so the check can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CORE = join(import.meta.dirname, '..', '..', 'core');

const TABLES = [
  'meta', 'counters', 'sites', 'robots', 'pages', 'links', 'frontier', 'content_claims', 'content_hashes', 'content',
  'events', 'pagerank_runs', 'pagerank', 'site_pagerank', 'timeline', 'sqlite_master',
].join('|');
/** SQL written in capitals, by its shape. */
const SQL_SHAPE = /\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\b(CREATE|DROP|ALTER)\s+(UNIQUE\s+)?(TABLE|INDEX|VIEW|TRIGGER)\b/;
/** SQL in any case that names a crawl table. */
const SQL_VERB = /\b(select|insert|update|delete|replace)\b/i;
const TABLE_REF = new RegExp(`\\b(from|into|update|join)\\s+(${TABLES})\\b`, 'i');

/** Findings ("file:line: what") of SQL in one source file. */
function sqlFindings(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    out.push(`${file}:${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const arg = node.arguments[0];
      if (name === 'prepare') report(node, 'prepares a statement');
      if (name === 'exec' && arg && (ts.isStringLiteralLike(arg) || ts.isTemplateExpression(arg))) report(node, 'runs SQL with exec');
    }
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.moduleSpecifier.text === 'better-sqlite3') report(node, 'imports better-sqlite3');
    }
    const literal = ts.isStringLiteralLike(node)
      ? node.text
      : ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? ')
        : null;
    if (literal !== null && !ts.isImportDeclaration(node.parent) && (SQL_SHAPE.test(literal) || (SQL_VERB.test(literal) && TABLE_REF.test(literal)))) {
      report(node, `SQL text ${JSON.stringify(literal.slice(0, 60))}`);
    }
    if (!ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
    else node.templateSpans.forEach((s) => visit(s.expression));
  };
  visit(source);
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('the read side lives in core/store', () => {
  it('no file in core/ outside core/store/ holds SQL, prepares statements or opens SQLite', () => {
    const files = sourceFiles(CORE).filter((f) => !relative(CORE, f).startsWith(`store${sep}`));
    expect(files.length).toBeGreaterThan(50); // the walk really saw the engine
    const findings = files.flatMap((f) => sqlFindings(relative(CORE, f), readFileSync(f, 'utf8')));
    expect(findings).toEqual([]);
  });

  it('core/store itself is seen as full of SQL (the scanner finds what is there)', () => {
    const store = sourceFiles(join(CORE, 'store')).flatMap((f) => sqlFindings(f, readFileSync(f, 'utf8')));
    expect(store.length).toBeGreaterThan(20);
  });

  it('catches a planted query in each shape, and leaves regular expressions and prose alone', () => {
    const planted = [
      "const n = db.prepare('SELECT count(*) FROM pages').get();",
      "const st = reader['db'].prepare(sql);",
      "db.exec(`DELETE FROM links WHERE src = ${id}`);",
      "const q = 'select url from pages where id = ?';",
      'const sql = `\n  UPDATE sites\n  SET parked = NULL`;',
      "const s = \"INSERT OR IGNORE INTO links(src, dst) VALUES (?, ?)\";",
      "import Database from 'better-sqlite3';",
      'const t = `SELECT ${cols} FROM ${table} WHERE id > ?`;',
    ];
    for (const code of planted) expect(sqlFindings('planted.ts', code), code).not.toEqual([]);
    const harmless = [
      'const m = /^(\\d+)$/.exec(text);',
      'const p = prepare({ graph, seeds });',
      "const msg = 'choose a policy from the list';",
      "const e = 'pages fetched from sites: ' + n;",
      '// SELECT url FROM pages: a comment about SQL is no SQL',
      "const method = 'DELETE';",
    ];
    for (const code of harmless) expect(sqlFindings('harmless.ts', code), code).toEqual([]);
  });
});
