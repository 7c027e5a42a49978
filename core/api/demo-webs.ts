/**
 * The built-in demo web, run in-process on 127.0.0.1 so a first-time user can watch a
 * crawl without touching the internet. Its spec and port are kept beside the crawl file
 * (NAME.demo.json), so that a resumed crawl finds the same web at the same address.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { generateWeb } from '../testweb/generator.js';
import { TestWebServer } from '../testweb/server.js';
import { seedUrls } from '../testweb/web.js';

export interface DemoSpec {
  sites: number;
  pages: number;
  latencyMs: number;
  seed: number;
}

export const DEMO_DEFAULTS: DemoSpec = { sites: 60, pages: 3000, latencyMs: 20, seed: 1 };

export class DemoWebs {
  private readonly servers = new Map<string, TestWebServer>();

  constructor(private readonly opts: { logFile?: string } = {}) {}

  /** Starts (or finds) the demo web of crawl `id`; port 0 picks a free one. */
  async ensure(id: string, spec: DemoSpec, port = 0): Promise<{ port: number; seeds: string[] }> {
    let server = this.servers.get(id);
    if (!server) {
      const web = generateWeb({ seed: spec.seed, sites: spec.sites, pages: spec.pages, latency: spec.latencyMs > 0 ? { maxMs: spec.latencyMs } : false });
      server = new TestWebServer(web, { port, memoryLog: false, logFile: this.opts.logFile });
      await server.start();
      this.servers.set(id, server);
    }
    const actual = new URL(server.homeUrls()[0] ?? 'http://x:0/').port;
    return { port: Number(actual), seeds: seedUrls(server.web, Number(actual)) };
  }

  /** Restarts the demo web a stored crawl was made against, if it was a demo crawl. */
  async resumeFor(id: string, sidecar: string): Promise<void> {
    if (!existsSync(sidecar) || this.servers.has(id)) return;
    const { spec, port } = JSON.parse(readFileSync(sidecar, 'utf8')) as { spec: DemoSpec; port: number };
    await this.ensure(id, spec, port);
  }

  save(sidecar: string, spec: DemoSpec, port: number): void {
    writeFileSync(sidecar, JSON.stringify({ spec, port }) + '\n');
  }

  async stop(id: string): Promise<void> {
    const s = this.servers.get(id);
    this.servers.delete(id);
    await s?.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((id) => this.stop(id)));
  }
}
