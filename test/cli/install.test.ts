/**
 * The two set-up commands must work on a machine that cannot download Electron's binary
 * (as this one): Electron is an optional dependency, `npm start` falls back to browser mode,
 * and `npm run package` says in one line what it needs. (`.ci/run` proves the install
 * itself: plain `npm ci`, no ELECTRON_SKIP_BINARY_DOWNLOAD.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;

function electronBinaryInstalled(): boolean {
  try {
    const path = createRequire(join(ROOT, 'package.json'))('electron') as unknown;
    return typeof path === 'string' && existsSync(path);
  } catch {
    return false;
  }
}
const noBinary = !electronBinaryInstalled();

describe('install without Electron binary', () => {
  it('declares electron optional, so a failed binary download does not fail `npm install`', () => {
    expect(pkg.optionalDependencies?.electron).toBeTruthy();
    expect(pkg.devDependencies?.electron).toBeUndefined();
    expect(pkg.dependencies?.electron).toBeUndefined();
  });

  // Where a developer has Electron's binary, `npm start` opens the window instead: nothing to check here then.
  it.skipIf(!noBinary)('`npm start` prints the browser-mode URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-start-'));
    const child = spawn(process.execPath, [join(ROOT, 'electron', 'start.mjs'), '--dir', dir, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines: string[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line);
          const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${lines.join('\n')}`)));
      });
      expect(lines[0]).toMatch(/browser mode/i);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      // Stopping `npm start` stops the server it started (it was left running, orphaned).
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      const answers = async () => fetch(url).then(() => true, () => false);
      await expect.poll(answers, { timeout: 10_000, interval: 200 }).toBe(false);
    } finally {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!noBinary)('`npm run package` says in one line that it needs the binary, and exits 2', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'electron', 'package.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    const err = r.stderr.trim().split('\n');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/needs Electron's binary/);
    expect(r.stdout).toBe('');
  });
});
