// `npm start`: the Electron window where Electron's binary is installed; otherwise browser
// mode (`crawlbench serve`), which prints the URL to open.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
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

/**
 * Runs the app (the window or the browser-mode server) as this process's child, and passes
 * SIGINT and SIGTERM on to it: a process manager (or a test) stopping `npm start` must stop the
 * server too, not leave it orphaned with its crawls running.
 */
function runApp(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (typeof electronBinary === 'string' && existsSync(electronBinary)) {
  run(npm, ['run', '--silent', 'build']);
  run(npm, ['run', '--silent', 'build:renderer']);
  run(npm, ['run', '--silent', 'build:electron']);
  runApp(electronBinary, ['dist/electron/main.mjs']);
} else {
  console.log('Electron is not installed here (no binary); starting browser mode instead.');
  if (!existsSync('dist/core/cli/main.js')) {
    // tsc builds incrementally and does not look for its outputs: its record of the last build goes first.
    rmSync('dist/core/.tsbuildinfo', { force: true });
    run(npm, ['run', '--silent', 'build']);
  }
  if (!existsSync('dist/renderer/index.html')) run(npm, ['run', '--silent', 'build:renderer']);
  runApp(process.execPath, ['bin/crawlbench.js', 'serve', ...process.argv.slice(2)]);
}
