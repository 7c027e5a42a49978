/** `crawlbench serve` as a child process, and calls to its API with the token it prints. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/crawlbench.js', import.meta.url));

export interface Served {
  url: string;
  call<T>(name: string, data: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function serve(workspace: string): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--dir', workspace, '--demo-port', String(await freePort())], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`crawlbench serve exited with ${code}`)));
  });
  const u = new URL(url);
  const token = u.searchParams.get('token')!;
  return {
    url,
    async call<T>(name: string, data: unknown[]): Promise<T> {
      const res = await fetch(`${u.origin}/api/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ kind: 'call', id: 1, name, data }),
      });
      const body = (await res.json()) as { data?: T; error?: { message: string } };
      if (body.error) throw new Error(`${name}: ${body.error.message}`);
      return body.data as T;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
