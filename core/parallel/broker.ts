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
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import { executable, onPath } from '../graph/tools.js';
import type { BrokerCredentials } from './broker-credentials.js';

// The parallel crawl's modules import them from here with the broker; the crawl command's flags from broker-credentials.js.
export { CREDENTIAL_ENV, credentialsEnv, credentialsFromEnv, type BrokerCredentials } from './broker-credentials.js';

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
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

/** Connects, retrying for ever once connected (a broker that is restarted is waited for). */
export async function connectBroker(url: string, creds: BrokerCredentials, name: string, waitOnFirstConnect = false): Promise<NatsConnection> {
  const u = checkBrokerUrl(url, creds);
  const auth = creds.nkeyFile ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(readFileSync(creds.nkeyFile, 'utf8').trim())) } : {};
  try {
    return await connect({
      servers: `${u.hostname}:${u.port || 4222}`,
      name,
      ...(creds.user !== undefined ? { user: creds.user, pass: creds.password } : {}),
      ...(creds.token !== undefined ? { token: creds.token } : {}),
      ...auth,
      ...(u.protocol === 'tls:' ? { tls: {} } : {}),
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

  private async spawn(): Promise<void> {
    const child = spawn(this.program, ['-js', '-sd', this.storeDir, '-a', '127.0.0.1', '-p', String(this.port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return;
      this.child = null;
      this.restarts++;
      this.onNote(`nats-server ended (${signal ?? `exit ${code}`}); starting it again on port ${this.port}`);
      setTimeout(() => void this.spawn().catch((e) => this.onNote(`nats-server did not start again: ${(e as Error).message}`)), 200);
    });
    await waitForPort(this.port, 10_000, () => (child.exitCode !== null ? `nats-server exited: ${err.trim().split('\n').pop() ?? ''}` : null));
  }

  /** Ends the broker (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
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
