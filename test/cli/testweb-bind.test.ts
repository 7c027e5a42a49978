import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { BIN } from '../helpers/run.js';

function status(address: string, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: address, port, path: '/', agent: false, headers: { host: `${host}:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

it('crawlbench testweb --bind-per-site serves each site on its own address and names them in resolve', async () => {
  const child = spawn(process.execPath, [BIN, 'testweb', '--sites', '3', '--pages', '30', '--latency', 'off', '--bind-per-site'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const ready = JSON.parse(line) as { port: number; resolve: string; sites: number };
    const pairs = ready.resolve.split(',').map((p) => p.split('='));
    expect(pairs).toHaveLength(ready.sites);
    expect(new Set(pairs.map(([, ip]) => ip)).size).toBe(ready.sites);
    for (const [host, ip] of pairs) {
      expect(ip).toMatch(/^127\.1\.0\.\d+$/);
      expect(await status(ip!, ready.port, host!)).toBe(200);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
  }
});
