#!/usr/bin/env node
// Thin launcher: the CLI is compiled from core/cli/ into dist/ by `npm install` (prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A crawl's young generation, capped before anything runs. Node 24's V8 sizes it from the
// machine's memory (two 64 MB semi-spaces on a 24 GB machine), and a crawl, whose pages,
// links and requests live for milliseconds to seconds, grows it to the full size: about 100 MB
// of RSS that bench/throughput shows buys no speed (docs/performance.md). Commands that crawl
// start again at once with 16 MB semi-spaces, Node 20's default: process.execve (Node 22.15
// and later, not on Windows) replaces this process with the same one, flag added, so nothing
// runs twice and the pid stays.
const YOUNG = '--max-semi-space-size=16';
const CRAWLING = new Set(['crawl', 'worker', 'demo']);
if (
  CRAWLING.has(process.argv[2] ?? '') &&
  typeof process.execve === 'function' &&
  process.platform !== 'win32' &&
  !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))
) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, YOUNG, ...process.argv.slice(1)], process.env);
}

// V8's compiled code of crawlbench's modules kept on disk between runs (Node 22.1 and later; in
// the system's temporary folder, or NODE_COMPILE_CACHE): a command starts in about a quarter
// less CPU, and a parallel crawl starts a process for each of its workers.
const { default: nodeModule } = await import('node:module');
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();

const entry = new URL('../dist/core/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('crawlbench: not built yet; run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
