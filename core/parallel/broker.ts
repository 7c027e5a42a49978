/**
 * The parallel crawl's broker: NATS with JetStream. Either one given (`--broker
 * nats://HOST:PORT`), or the embedded default: Debian's `nats-server` started as a child on
 * 127.0.0.1 and a free port with JetStream storage beside the crawl (NAME.parts/jetstream),
 * and started again on the same port and storage if it dies.
 *
 * A broker outside loopback needs credentials (user and password, a token, or an nkey seed
 * file), so a crawl's URLs are never exchanged through an open server by mistake.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { JetStreamApiError } from '@nats-io/jetstream';
import { CrawlError, ErrorCodes, badOption, isDiskFull } from '../errors.js';
import { executable, onPath } from '../graph/tools.js';
import type { BrokerCredentials } from './broker-credentials.js';
import { makeFolders } from '../folders.js';

// The parallel crawl's modules import them from here with the broker; the crawl command's flags from broker-credentials.js.
export { CREDENTIAL_ENV, credentialsEnv, credentialsFromEnv, type BrokerCredentials } from './broker-credentials.js';

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * JetStream's "insufficient storage resources available" (10047: a write found the store full)
 * and "insufficient resources" (10023: what a server answers once a full disk made it stop
 * writing, seen when a crawl paused with its disk full is started again while it is still full).
 */
const JS_STORE_FULL = new Set([10047, 10023]);

/**
 * A failure because a disk is full: this machine's (SQLite, a file write), or the broker's store
 * (the embedded nats-server keeps it in NAME.parts, on the same disk). A parallel crawl pauses
 * whole on it, as a crawl of one process pauses (exit 3), rather than starting workers again.
 */
export function storageFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as Error).cause, depth++) {
    if (e instanceof CrawlError ? e.code === ErrorCodes.DISK_FULL : isDiskFull(e)) return true;
    if (e instanceof JetStreamApiError && (JS_STORE_FULL.has(e.code) || /insufficient (storage )?resources/i.test(e.message))) return true;
  }
  return false;
}

/** Checks a broker URL (nats:// or tls://) and refuses one outside loopback without credentials. */
export function checkBrokerUrl(url: string, creds: BrokerCredentials): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw badOption('--broker', `"${url}" is not a URL (nats://HOST:PORT)`);
  }
  if (u.protocol !== 'nats:' && u.protocol !== 'tls:') throw badOption('--broker', `"${url}": use nats://HOST:PORT or tls://HOST:PORT`);
  const hasCreds = creds.token !== undefined || creds.nkeyFile !== undefined || (creds.user !== undefined && creds.password !== undefined);
  if (!isLoopback(u.hostname) && !hasCreds) {
    throw new CrawlError(
      ErrorCodes.BROKER_NO_CREDENTIALS,
      `--broker ${url} is outside this machine and no credentials are given: pass --nats-user and --nats-password, --nats-token, or --nats-nkey FILE`,
    );
  }
  return u;
}

/**
 * --broker: one server's URL, or the URLs of several servers of one NATS cluster separated by
 * commas (the client connects to any of them, and goes to another when its server is lost).
 */
export function checkBrokerUrls(list: string, creds: BrokerCredentials): URL[] {
  const urls = list.split(',').map((s) => s.trim()).filter((s) => s !== '').map((u) => checkBrokerUrl(u, creds));
  if (urls.length === 0) throw badOption('--broker', 'no server URL given (nats://HOST:PORT)');
  if (new Set(urls.map((u) => u.protocol)).size > 1) throw badOption('--broker', `"${list}": use nats:// for every server or tls:// for every one`);
  return urls;
}

/** Connects, retrying for ever once connected (a broker that is restarted is waited for). */
export async function connectBroker(url: string, creds: BrokerCredentials, name: string, waitOnFirstConnect = false): Promise<NatsConnection> {
  const urls = checkBrokerUrls(url, creds);
  const auth = creds.nkeyFile ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(readFileSync(creds.nkeyFile, 'utf8').trim())) } : {};
  try {
    return await connect({
      servers: urls.map((u) => `${u.hostname}:${u.port || 4222}`),
      name,
      ...(creds.user !== undefined ? { user: creds.user, pass: creds.password } : {}),
      ...(creds.token !== undefined ? { token: creds.token } : {}),
      ...auth,
      ...(urls[0]!.protocol === 'tls:' ? { tls: {} } : {}),
      maxReconnectAttempts: -1,
      waitOnFirstConnect,
      reconnectTimeWait: 250,
      pingInterval: 2000,
      maxPingOut: 3,
      timeout: 5000,
    });
  } catch (err) {
    throw new CrawlError(ErrorCodes.BROKER_UNREACHABLE, `cannot reach the broker at ${url}: ${(err as Error).message}`);
  }
}

/** The most replicas a JetStream stream may have (NATS allows 1 to 5). */
export const MAX_REPLICAS = 5;

/**
 * How many copies the crawl's stream and KV buckets keep when --replicas does not say: 1 on a
 * single server; on a cluster of at least 3 servers (the server's INFO names its cluster and
 * the client URLs of its servers, or --broker lists them), 3, so that losing one server loses
 * nothing and the other two still form a majority.
 */
export function defaultReplicas(nc: NatsConnection, given: string): number {
  const info = nc.info;
  if (!info?.cluster) return 1;
  const servers = Math.max(new Set(info.connect_urls ?? []).size, given.split(',').filter((s) => s.trim() !== '').length);
  return servers >= 3 ? 3 : 1;
}

/**
 * Closes a connection after what it still holds to send has reached the server (a flush's
 * round trip, at most `ms`): the client's close() drops its outbound buffer, and with it the
 * acknowledgements of a worker's last commit, which the server would then deliver again only
 * after the consumer's ack wait.
 */
export async function closeConnection(nc: NatsConnection, ms = 2000): Promise<void> {
  await waitAtMost(nc.flush(), ms);
  await nc.close().catch(() => {});
}

/**
 * Waits for a broker operation at most `ms` (a broker that is away would hold it for its own
 * timeout, or for ever); its failure is ignored: for what a pausing worker tries on its way out.
 * Whether it answered (or failed) in time.
 */
export async function waitAtMost(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([p.then(() => true, () => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return settled;
}

/** nats-server: the given path, else PATH, else Debian's /usr/sbin/nats-server; a missing one is said in one line. */
const DEBIAN_NATS_SERVER = '/usr/sbin/nats-server';

export function findNatsServer(given?: string): string {
  if (given !== undefined) {
    if (!executable(given)) throw new CrawlError(ErrorCodes.TOOL_MISSING, `--nats-server ${given} is not a program`);
    return given;
  }
  const found = onPath('nats-server') ?? (executable(DEBIAN_NATS_SERVER) ? DEBIAN_NATS_SERVER : null);
  if (!found) {
    throw new CrawlError(ErrorCodes.TOOL_MISSING, 'nats-server is not installed: apt-get install nats-server (or give a running broker with --broker nats://HOST:PORT)');
  }
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The embedded broker: nats-server as a child, JetStream stored in `storeDir`, on 127.0.0.1. */
export class EmbeddedBroker {
  private child: ChildProcess | null = null;
  private stopping = false;
  /** Times the broker died and was started again. */
  restarts = 0;

  private constructor(
    private readonly program: string,
    private readonly storeDir: string,
    readonly port: number,
    private readonly onNote: (line: string) => void,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  static async start(program: string, storeDir: string, port: number | null, onNote: (line: string) => void): Promise<EmbeddedBroker> {
    const b = new EmbeddedBroker(program, storeDir, port ?? (await freePort()), onNote);
    await b.spawn();
    return b;
  }

  /** Where nats-server writes its log (its standard error), in its storage folder. */
  get logFile(): string {
    return join(this.storeDir, 'nats-server.log');
  }

  private async spawn(): Promise<void> {
    makeFolders(this.storeDir);
    // Its standard error goes to a file, not a pipe to this process: a pipe would end it
    // (SIGPIPE) at its next line once this process is gone, at a moment nobody chose; the
    // next run finds it by its pid and stops it (stale-run.ts).
    const log = openSync(this.logFile, 'a');
    const from = fstatSync(log).size;
    let child: ChildProcess;
    try {
      child = spawn(this.program, ['-js', '-sd', this.storeDir, '-a', '127.0.0.1', '-p', String(this.port)], { stdio: ['ignore', 'ignore', log] });
    } finally {
      closeSync(log);
    }
    this.child = child;
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      this.child = null;
      this.restarts++;
      this.onNote(`nats-server ended (${signal ?? `exit ${code}`}); starting it again on port ${this.port}`);
      setTimeout(() => void this.spawn().catch((e) => this.onNote(`nats-server did not start again: ${(e as Error).message}`)), 200);
    });
    const lastLine = () => readFileSync(this.logFile, 'utf8').slice(from).trim().split('\n').pop() ?? '';
    await waitForPort(this.port, 10_000, () => (child.exitCode !== null ? `nats-server exited: ${lastLine()}` : null));
  }

  /**
   * SIGTERM, and SIGKILL `killAfterMs` later if it has not ended: nats-server ends in a few tens
   * of ms, but with its store's disk full it waited out the whole 5 s here. Killed, it loses
   * nothing it has written: its store is on disk, and read again when it starts.
   */
  async stop(killAfterMs = 5000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await gone;
    clearTimeout(t);
  }
}

async function waitForPort(port: number, ms: number, failed: () => string | null): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const problem = failed();
    if (problem) throw new CrawlError(ErrorCodes.BROKER_UNREACHABLE, problem);
    try {
      const nc = await connect({ servers: `127.0.0.1:${port}`, timeout: 500, reconnect: false });
      await nc.close();
      return;
    } catch {
      if (Date.now() > until) throw new CrawlError(ErrorCodes.BROKER_UNREACHABLE, `nats-server did not answer on 127.0.0.1:${port} within ${ms / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
