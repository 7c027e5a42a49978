// `node scripts/side-by-side.mjs "COMMAND" ...`: runs the commands (npm's PATH, so the project's
// tools) at most as many at a time as the machine has cores (and 4), each one's output printed whole once
// it ends, so the lines of two never mix. Exits 1 naming every command that failed, after all
// have ended. npm test's build and type-checks are single-threaded and independent of each other:
// one after the other they took 79 s on two cores, side by side about half (package.json pretest).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/side-by-side.mjs "COMMAND" ...\n');
  process.exit(2);
}

function run(command) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (err) => out.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const took = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`> ${command} (${code === 0 ? 'done' : `failed: ${signal ?? `exit ${code}`}`}, ${took} s)\n`);
      process.stdout.write(Buffer.concat(out));
      resolve(code === 0);
    });
  });
}

const queue = [...commands];
const failed = [];
async function lane() {
  for (let c = queue.shift(); c !== undefined; c = queue.shift()) if (!(await run(c))) failed.push(c);
}
// At most 4 at a time: a type-check holds about 1 GB, and a container may report the host's cores.
await Promise.all(Array.from({ length: Math.max(1, Math.min(availableParallelism(), 4, commands.length)) }, lane));
if (failed.length > 0) {
  process.stderr.write(`side-by-side: ${failed.length} of ${commands.length} failed: ${failed.join('; ')}\n`);
  process.exit(1);
}
