#!/usr/bin/env node
// Thin launcher: the CLI is compiled from core/cli/ into dist/ by `npm install` (prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const entry = new URL('../dist/core/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('crawlbench: not built yet; run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
