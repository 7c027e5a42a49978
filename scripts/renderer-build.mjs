// `node scripts/renderer-build.mjs`: builds the renderer (vite) into dist/renderer, unless the
// last build there is newer than every file it is made from (renderer/, core/, the vite config,
// the packages). npm ci's prepare builds it and npm test's pretest then built it again: 20 s
// of one core beside the type-checks, on every CI run. `npm run build:renderer` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** Written after a build that succeeded (vite empties dist/renderer first). */
const stamp = join(root, 'dist', 'renderer', '.built');
const sources = ['renderer', 'core', 'vite.config.ts', 'tsconfig.json', 'tsconfig.web.json', 'package.json', 'package-lock.json'].map((p) => join(root, p));

/** The latest modification time of a file, or of a folder and everything in it. */
function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let latest = st.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

if (existsSync(stamp) && sources.filter(existsSync).every((p) => newest(p) <= statSync(stamp).mtimeMs)) {
  process.stdout.write('renderer: dist/renderer is newer than its sources; not built again\n');
  process.exit(0);
}
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
// The stamp says when the build began: a source saved while vite ran is newer, and built next time.
const began = new Date();
const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(stamp, `${began.toISOString()}\n`);
utimesSync(stamp, began, began);
