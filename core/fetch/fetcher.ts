import { BandwidthLimiter } from './bandwidth.js';
import { Connector, type TlsMode } from './connector.js';
import { HttpConnection } from './http-connection.js';
import type { Connection, Fetcher, FetchLimits } from './interfaces.js';
import { CachingResolver, type ResolveRule } from './resolver.js';

export class HttpFetcher implements Fetcher {
  readonly resolver: CachingResolver;
  private readonly limiter: BandwidthLimiter | null;
  /** One for the crawl: its trusted CAs parsed once, its TLS sessions resumed across connections. */
  private readonly connector: Connector;

  constructor(
    private readonly opts: FetchLimits & {
      userAgent: string;
      resolve: readonly ResolveRule[];
      bandwidth: number | null;
      /** Default 'record'. */
      tls?: TlsMode;
      /** More CAs to trust, PEM. */
      ca?: readonly string[];
    },
  ) {
    this.resolver = new CachingResolver(opts.resolve);
    this.limiter = opts.bandwidth ? new BandwidthLimiter(opts.bandwidth) : null;
    this.connector = new Connector({ connectTimeout: opts.connectTimeout, tls: opts.tls ?? 'record', ca: opts.ca ?? [] });
  }

  address(host: string): Promise<string> {
    return this.resolver.resolve(host);
  }

  async connect(origin: string): Promise<Connection> {
    const host = new URL(origin).hostname;
    const address = await this.resolver.resolve(host);
    return new HttpConnection(origin, address, this.opts, this.opts.userAgent, this.limiter, this.connector);
  }
}
