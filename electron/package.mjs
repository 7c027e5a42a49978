// `npm run package`: the desktop installers (AppImage, NSIS, dmg) with electron-builder.
// It needs Electron's binary (an optional dependency whose download may have failed at
// install); without it, it says so in one line instead of failing deep inside electron-builder.
// better-sqlite3 13 is Node-API with prebuilt binaries in its package: nothing to rebuild.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const path = require('electron'); // the binary's path; throws when the package or its binary is missing
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

if (!electronBinary()) {
  console.error("npm run package needs Electron's binary, which is not installed here: on a machine that can reach Electron's downloads (or with ELECTRON_MIRROR set), run `npm install electron`, then `npm run package`.");
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const steps = [
  [npm, ['run', '--silent', 'build']],
  [npm, ['run', '--silent', 'build:renderer']],
  [npm, ['run', '--silent', 'build:electron']],
  [npx, ['electron-builder', '--config', 'electron-builder.yml']],
];
for (const [cmd, args] of steps) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
