// `npm run typecheck:electron`: type-checks electron/ against Electron's own types.
//
// Electron is an optional dependency: where its binary cannot be downloaded, its postinstall
// fails and npm leaves the whole package out, types included (so that `npm install` still
// succeeds). The types are in the registry's tarball, not in the binary, so they are then
// taken from the locked version's tarball (`npm pack`, no binary download) into
// node_modules/.cache. Without a registry either, this says so in one line and checks nothing,
// except under CI, where a check that cannot run is a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const installed = join(root, 'node_modules', 'electron', 'electron.d.ts');

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
}

function lockedVersion() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const v = lock.packages?.['node_modules/electron']?.version;
  if (!v) throw new Error('package-lock.json names no electron version');
  return v;
}

/** electron.d.ts of the locked version, from the registry tarball; null when it cannot be had. */
function typesFromTarball() {
  const version = lockedVersion();
  const dir = join(root, 'node_modules', '.cache', 'electron-types', version);
  const file = join(dir, 'package', 'electron.d.ts');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const pack = run(npm, ['pack', `electron@${version}`, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (pack.status !== 0 || !tgz) return null;
  const untar = run('tar', ['-xzf', join(dir, tgz), '-C', dir, 'package/electron.d.ts']);
  return untar.status === 0 && existsSync(file) ? file : null;
}

let status;
if (existsSync(installed)) {
  status = run(process.execPath, [tsc, '-p', 'tsconfig.electron.json']).status;
} else {
  const types = typesFromTarball();
  if (!types) {
    console.log("typecheck:electron: Electron's types are not installed and the registry cannot be reached; electron/ was not type-checked.");
    process.exit(process.env.CI ? 1 : 0);
  }
  // A tsconfig beside the cached types: the electron/ sources plus the ambient `declare module 'electron'`.
  const config = join(root, 'node_modules', '.cache', 'electron-types', 'tsconfig.json');
  writeFileSync(config, JSON.stringify({ extends: join(root, 'tsconfig.electron.json'), include: [join(root, 'electron', '**', '*.ts'), types] }, null, 2));
  status = run(process.execPath, [tsc, '-p', config]).status;
}
process.exit(status ?? 1);
