/**
 * The built-in demo web, run in-process on 127.0.0.1 so a first-time user can watch a
 * crawl without touching the internet. Its spec and port are kept beside the crawl file
 * (NAME.demo.json), so that a resumed crawl finds the same web at the same address.
 *
 * Every demo web is served on one stable port (DEMO_PORT, or the workspace's own): the port
 * is part of every URL, so a second demo crawl (or the same web's revision 2, "months
 * later") has the same URLs as the first, and history and comparison can match them. Only
 * when that port is taken (another demo crawl is running) does a web get a free port, and
 * then its URLs match no earlier crawl's: `ensure` says so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CrawlError, ErrorCodes } from '../errors.js';
import { generateWeb } from '../testweb/generator.js';
import { TestWebServer } from '../testweb/server.js';
import { TestCa } from '../testweb/tls-certs.js';
import { seedUrls } from '../testweb/web.js';

export interface DemoSpec {
  sites: number;
  pages: number;
  latencyMs: number;
  seed: number;
  /** 2: the same web months later (testweb --revision 2): some pages gone, new ones, changed links. */
  revision?: 1 | 2;
  /** Its sites serve sitemaps (testweb --sitemaps): set for a crawl that reads them, so they have something to read. */
  sitemaps?: boolean;
  /** Share of its sites served over TLS too (testweb --tls), 0..1; the crawl trusts the web's test CA. */
  tls?: number;
}

/** A demo web's test CA (certificate and key, PEM), kept beside its crawl so a restarted web serves the certificates the crawl trusts. */
export interface DemoCa {
  cert: string;
  key: string;
}

export const DEMO_DEFAULTS: DemoSpec = { sites: 60, pages: 3000, latencyMs: 20, seed: 1, revision: 1 };

/** The demo webs' port unless the workspace sets another. */
export const DEMO_PORT = 38471;

export interface DemoWebsOptions {
  logFile?: string;
  /** The stable port of the demo webs; 0 gives every web a free port (URLs then differ between crawls). */
  port?: number;
}

export class DemoWebs {
  private readonly servers = new Map<string, TestWebServer>();
  readonly port: number;

  constructor(private readonly opts: DemoWebsOptions = {}) {
    this.port = opts.port ?? DEMO_PORT;
  }

  /**
   * Starts (or finds) the demo web of crawl `id` on `port` (default: the stable port, or a
   * free one when it is taken). `stable` is false when it could not have the stable port.
   */
  async ensure(
    id: string,
    spec: DemoSpec,
    port?: number,
    savedCa?: DemoCa,
  ): Promise<DemoProbe> {
    let server = this.servers.get(id);
    if (!server) {
      server = await startDemoWeb(spec, port ?? null, this.port, savedCa, this.opts.logFile);
      this.servers.set(id, server);
    }
    return described(server, this.port);
  }

  /** Restarts the demo web a stored crawl was made against, if it was a demo crawl, on its own port. */
  async resumeFor(id: string, sidecar: string): Promise<void> {
    const saved = readDemoSidecar(sidecar);
    if (!saved || this.servers.has(id)) return;
    const { spec, port } = saved;
    try {
      await this.ensure(id, spec, port, saved.ca);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      throw new CrawlError(ErrorCodes.DB_LOCKED, `the demo web of "${id}" needs port ${port}, which another demo crawl is using: pause that crawl first`);
    }
  }

  /** Keeps the web's spec, its port and its pages (revision 2 has more or fewer than the spec's) beside the crawl, and its CA when it has sites on TLS. */
  save(sidecar: string, spec: DemoSpec, port: number, webPages: number, ca: DemoCa | null = null): void {
    writeFileSync(sidecar, JSON.stringify({ spec, port, webPages, ...(ca ? { ca } : {}) } satisfies DemoSidecar) + '\n');
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

/** A demo web as a crawl made against it needs it: its port, seeds, pages and test CA. */
export interface DemoProbe {
  port: number;
  seeds: string[];
  /** False when it could not have the stable port (its URLs match no earlier crawl's). */
  stable: boolean;
  pages: number;
  ca: DemoCa | null;
}

/** Up to this many pages a demo web is made on the calling thread (100,000 took 82 ms here); more in a worker thread (1,000,000 on 60 sites took 3.7 s). */
export const DEMO_INLINE_PAGES = 100_000;

/**
 * What a new crawl of a demo web needs of it, found by making the web and starting it on the
 * stable port (a free one when that is taken), then stopping it: the crawl starts it again when
 * it runs. A heavy job for a large web (heavy-jobs.ts 'demo-web'), so that the server's thread
 * does not make a million pages.
 */
export async function probeDemoWeb(spec: DemoSpec, stablePort: number): Promise<DemoProbe> {
  const server = await startDemoWeb(spec, null, stablePort);
  try {
    return described(server, stablePort);
  } finally {
    await server.stop();
  }
}

/** Makes the web of `spec` and starts it on `port`, or (null) on the stable port, or on a free one when that is taken. */
async function startDemoWeb(spec: DemoSpec, port: number | null, stablePort: number, savedCa?: DemoCa, logFile?: string): Promise<TestWebServer> {
  const web = generateWeb({ seed: spec.seed, sites: spec.sites, pages: spec.pages, revision: spec.revision ?? 1, latency: spec.latencyMs > 0 ? { maxMs: spec.latencyMs } : false, sitemaps: spec.sitemaps ?? false, tls: spec.tls ?? 0 });
  const ca = (spec.tls ?? 0) > 0 ? (savedCa ? await TestCa.load(savedCa.cert, savedCa.key) : await TestCa.create('crawlbench demo web CA')) : undefined;
  const listen = async (p: number) => {
    // Validators on: a demo crawl of revision 2 guided by one of revision 1 asks only for what changed.
    const s = new TestWebServer(web, { port: p, memoryLog: false, logFile, validators: true, ca });
    await s.start();
    return s;
  };
  if (port !== null) return listen(port);
  try {
    return await listen(stablePort);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    return listen(0);
  }
}

function described(server: TestWebServer, stablePort: number): DemoProbe {
  const actual = Number(new URL(server.homeUrls()[0] ?? 'http://x:0/').port);
  const ca = server.ca ? { cert: server.ca.certPem, key: server.ca.privateKeyPem } : null;
  return { port: actual, seeds: seedUrls(server.web, actual), stable: stablePort !== 0 && actual === stablePort, pages: server.web.pageCount, ca };
}

/** What NAME.demo.json holds; `webPages` is absent from those written before it was kept. */
export interface DemoSidecar {
  spec: DemoSpec;
  port: number;
  webPages?: number;
  /** The test CA of a web with sites on TLS. */
  ca?: DemoCa;
}

/** The demo web a crawl was made against (its NAME.demo.json), or null for a crawl of real seeds. */
export function readDemoSidecar(sidecar: string): DemoSidecar | null {
  if (!existsSync(sidecar)) return null;
  return JSON.parse(readFileSync(sidecar, 'utf8')) as DemoSidecar;
}

/**
 * The pages of the web a demo crawl is made against: as kept with it, else, for revision 1
 * (which has exactly the spec's pages), the spec's; null where it is not known (revision 2 of a
 * crawl made before the size was kept).
 */
export function demoWebPages(saved: DemoSidecar): number | null {
  if (typeof saved.webPages === 'number') return saved.webPages;
  return (saved.spec.revision ?? 1) === 1 ? saved.spec.pages : null;
}
