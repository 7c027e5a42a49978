/** Runs `crawlbench serve` as a user would, and hands back the URL it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/crawlbench.js', import.meta.url));

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  /** What it wrote on stderr, line by line (only with `captureStderr`; otherwise stderr is the test's). */
  stderr: string[];
  stop(): Promise<void>;
}

/** Starts `crawlbench serve ARGS`; `env`: variables for it beside the runner's (never set in the runner, whose fork runs other files next). */
export async function startServe(args: string[], opts: { captureStderr?: boolean; env?: Record<string, string> } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', opts.captureStderr ? 'pipe' : 'inherit'], env: { ...process.env, ...opts.env } });
  const stderr: string[] = [];
  if (opts.captureStderr) createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`crawlbench serve exited with ${code}`)));
  });
  const u = new URL(url);
  return {
    url,
    origin: u.origin,
    token: u.searchParams.get('token')!,
    child,
    stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * One call over HTTP, as a script (or an attacker without the token) would make it: the token
 * in an Authorization header and a JSON body, which is what POST /api/call wants.
 */
export async function httpCall(origin: string, token: string | null, name: string, data: unknown[]): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${origin}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ kind: 'call', id: 1, name, data }),
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}
