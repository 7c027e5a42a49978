// `npm start`: the Electron window where Electron's binary is installed; otherwise browser
// mode (`crawlbench serve`), which prints the URL to open.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let electronBinary = null;
try {
  electronBinary = require('electron'); // the binary's path; throws when it was never downloaded
} catch {
  electronBinary = null;
}
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status === 0 || process.exit(1);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (typeof electronBinary === 'string' && existsSync(electronBinary)) {
  run(npm, ['run', '--silent', 'build']);
  run(npm, ['run', '--silent', 'build:renderer']);
  run(npm, ['run', '--silent', 'build:electron']);
  spawn(electronBinary, ['dist/electron/main.mjs'], { stdio: 'inherit' }).on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log('Electron is not installed here (no binary); starting browser mode instead.');
  if (!existsSync('dist/core/cli/main.js')) run(npm, ['run', '--silent', 'build']);
  if (!existsSync('dist/renderer/index.html')) run(npm, ['run', '--silent', 'build:renderer']);
  spawn(process.execPath, ['bin/crawlbench.js', 'serve', ...process.argv.slice(2)], { stdio: 'inherit' }).on('exit', (code) => process.exit(code ?? 0));
}
