import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const BIN = join(__dirname, '../../bin/crawlbench.js');

/**
 * Runs a program to its end without blocking this process (which often serves the test web
 * the program crawls: spawnSync would deadlock).
 */
export function run(command: string, args: string[], opts: { cwd?: string; killAfterMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // killAfterMs: a program that should end at once but serves on is killed (code null), not left running.
    const child = spawn(command, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: opts.killAfterMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The built `crawlbench` command (npm test compiles it first). */
export function crawlbench(args: string[], opts: { cwd?: string; killAfterMs?: number } = {}): Promise<RunResult> {
  return run(process.execPath, [BIN, ...args], opts);
}
