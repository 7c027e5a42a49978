/**
 * One worker's side of the link exchange (docs/architecture.md, "The path of a URL that
 * crosses parts"):
 *
 * - out: the engine hands every URL it finds for another part to foreign(); when the page's
 *   links are all discovered, pageDone() writes one message per remote part carrying every URL
 *   of that page for that part (the thesis's message, §5.1) into the outbox, in the write
 *   batch that stores the page. After each commit the committed outbox is published to the
 *   part's subject with the message id (part, page) for JetStream's dedup, and a row leaves the
 *   outbox only once JetStream has acknowledged it: a broker that is away is waited for.
 * - batched (--exchange-batch D): pageDone() holds the page's URLs per remote part instead
 *   (committed with the page); after a commit, a part whose oldest held URLs are D old gets one
 *   message with every URL held for it (a URL found on several of those pages once, unless a
 *   later link could lift a limit the first one hit), sealed into the outbox in the open write
 *   batch and published after that commits. Its id names the held rows it took, so a batch
 *   republished after a kill is dropped by JetStream; a kill before the seal commits leaves the
 *   rows held, never published.
 * - in: part I's durable consumer; each message's URLs are discovered (the URL-seen test
 *   absorbs a redelivery) in the open batch, and the message is acknowledged after the batch
 *   that holds them is committed, so a killed worker loses nothing.
 */
import type { JetStreamClient, JsMsg, ConsumerMessages } from '@nats-io/jetstream';
import type { Crawler } from '../engine/crawler.js';
import type { ForeignLink, PartHook } from '../engine/context.js';
import { discover } from '../engine/discovery.js';
import type { ExchangeStore, HeldRow } from '../store/exchange-store.js';
import { DISCOVERER, type Assignment } from './assignment.js';
import { waitAtMost } from './broker.js';
import { consumerName, partSubject, streamName } from './definition.js';
import { readLinkMessage, type LinkMessage, type ShorterPaths, type WireLink } from './link-message.js';
import type { SitemapClaims } from './sitemap-claims.js';

const PUBLISH_CHUNK = 256;
/** How long a closing part waits for its outbox to be published. */
const CLOSE_PUBLISH_MS = 3000;
/** A batch's held links at most (JSON): well under NATS's default largest message, 1 MiB. */
const BATCH_BYTES = 256 * 1024;

export class PartExchange implements PartHook {
  /** URLs found for other parts, by the page they were found on, then by part: sent by that page's pageDone. */
  private readonly pending = new Map<number, Map<number, Map<string, ForeignLink>>>();
  private crawler: Crawler | null = null;
  private store: ExchangeStore | null = null;
  /** What every message id of this part's file begins with (messageIdPrefix). */
  private idPrefix = '';
  private ended = false;
  /** The outbox being published, if it is. */
  private publishing: Promise<void> | null = null;
  /** close() was called: nothing more is published or retried (the crawler closes its database next). */
  private closed = false;
  /** Messages taken in, each with the write batch that holds its URLs: acknowledged once that batch is committed. */
  private held: Array<{ m: JsMsg; batch: number }> = [];
  /** Delivered after the end: never taken in, handed back by close(). */
  private late: JsMsg[] = [];
  /** Asking the consumer for messages; false once the worker pauses (stopPulling). */
  private pulling = true;
  private messages: ConsumerMessages | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Messages taken in and published by this process (for the status line). */
  received = 0;
  sent = 0;
  /** Messages refused (not of the exchange's shape): the first is told. */
  private refused = 0;

  constructor(
    readonly part: number,
    private readonly name: string,
    private readonly assignment: Assignment,
    private readonly js: JetStreamClient,
    private readonly onNote: (line: string) => void,
    /** --exchange-batch in ms (0: every page message alone). */
    private readonly batchMs = 0,
    /** A page assignment's sitemap claims (sitemap-claims.ts); null: this worker reads the sitemaps of the sites it crawls. */
    private readonly sitemapClaims: SitemapClaims | null = null,
  ) {}

  /** Outbox rows up to this id are committed (read right after each commit): only they are published. */
  private committedTop = 0;

  // ---- the engine's hook -----------------------------------------------------------------
  mine(url: string, seed: boolean): boolean {
    const owner = seed ? this.assignment.seedOwner(url) : this.assignment.ownerOf(url);
    return owner === this.part || owner === DISCOVERER;
  }

  foreign(d: ForeignLink): void {
    if (d.parentId === null) return; // a seed: every worker has the seeds, its owner crawls it
    const part = this.assignment.ownerOf(d.url);
    // By page: a sitemap's URLs are found while other pages finish (engine/sitemaps.ts reads it as it arrives).
    let byPart = this.pending.get(d.parentId);
    if (!byPart) this.pending.set(d.parentId, (byPart = new Map()));
    let links = byPart.get(part);
    if (!links) byPart.set(part, (links = new Map()));
    if (!links.has(d.url)) links.set(d.url, d);
  }

  pageDone(pageId: number, url: string, attempt = 1): void {
    const byPart = this.pending.get(pageId);
    if (!byPart) return;
    this.pending.delete(pageId);
    for (const [part, links] of byPart) {
      // A page's links to one part in messages of at most BATCH_BYTES: one over the broker's
      // largest message (1 MiB; a page or a sitemap of 20,000 links) was refused at every try,
      // and the crawl never ended. The thesis's one message a page is the first; the rest say
      // `pages: 0`, so the page is counted once.
      let chunk = 0;
      let body: LinkMessage | null = null;
      let bytes = 0;
      let urlBytes = 0;
      const out = () => {
        if (body === null) return;
        if (this.batchMs > 0) this.store!.hold(part, Date.now(), JSON.stringify(body.links), body.links.length, urlBytes);
        else this.store!.send(body.id, part, JSON.stringify(body), body.links.length, urlBytes);
        body = null;
      };
      for (const l of links.values()) {
        const size = Buffer.byteLength(l.url) + (l.anchor === null ? 4 : Buffer.byteLength(l.anchor) + 2) + 32;
        if (body !== null && bytes + size > BATCH_BYTES) out();
        if (body === null) {
          // A sitemap read again (its first read failed part way) sends as another message: JetStream would drop the same id.
          const id = `${this.idPrefix}.${pageId}.${part}${attempt > 1 ? `.a${attempt}` : ''}${chunk > 0 ? `.c${chunk}` : ''}`;
          body = { id, from: this.part, src: url, links: [], ...(chunk > 0 ? { pages: 0 } : {}) };
          chunk++;
          bytes = 0;
          urlBytes = 0;
        }
        bytes += size;
        urlBytes += Buffer.byteLength(l.url);
        body.links.push([l.url, l.depth, l.redirects, l.anchor, l.nofollow ? 1 : 0]);
      }
      out();
    }
  }

  readsSitemaps(origin: string): Promise<boolean> {
    return this.sitemapClaims ? this.sitemapClaims.reads(origin) : Promise.resolve(true);
  }

  holdOpen(): boolean {
    return !this.ended;
  }

  /**
   * A fetched page found by a shorter path: its links to other parts go to their owners again at
   * their lower depths (engine/discovery.ts), one message per remote part, written in the batch
   * that lowers the page and published as the others are. Counted apart from the thesis's
   * messages (counters exchange:shorter-paths:*): the prediction has no depths.
   */
  shorterPath(pageId: number, url: string, links: ForeignLink[]): void {
    const byPart = new Map<number, ForeignLink[]>();
    for (const l of links) {
      const part = this.assignment.ownerOf(l.url);
      const ls = byPart.get(part);
      if (ls) ls.push(l);
      else byPart.set(part, [l]);
    }
    for (const [part, ls] of byPart) {
      // Depths only fall, so each lowering of the page has its own id (JetStream's dedup keeps redeliveries out).
      const id = `${this.idPrefix}.${pageId}.${part}.d${Math.min(...ls.map((l) => l.depth))}`;
      const body: ShorterPaths = { id, from: this.part, src: url, shorter: 1, links: ls.map((l) => [l.url, l.depth, l.redirects, l.anchor, l.nofollow ? 1 : 0]) };
      this.store!.sendApart(id, part, JSON.stringify(body));
      this.crawler!.ctx.counters.bump('exchange:shorter-paths:sent');
    }
  }

  // ---- the worker's side -------------------------------------------------------------------
  /** Binds the running crawler and its exchange tables; publishing and consuming start with its first commit. */
  attach(crawler: Crawler, store: ExchangeStore): void {
    this.crawler = crawler;
    this.store = store;
    this.idPrefix = messageIdPrefix(this.part, crawler.ctx.store.getMeta('created_at'));
    let started = false;
    // Writes not committed were given up (a failed run, a full disk): the messages whose URLs they
    // held go back to the broker, for this part's next run. Before, the end's own commit
    // acknowledged them with the rest, and their URLs were lost.
    crawler.on('rollback', () => {
      for (const h of this.held) h.m.nak();
      this.held = [];
    });
    crawler.on('commit', (committed: number) => {
      const still: typeof this.held = [];
      for (const h of this.held) {
        if (h.batch <= committed) h.m.ack();
        else still.push(h);
      }
      this.held = still;
      this.committedTop = store.outboxTop();
      if (this.batchMs > 0) this.seal(Date.now());
      void this.publish();
      if (!started) {
        started = true;
        void this.consume();
      }
    });
  }

  /** Idle: no session under way, nothing to fetch (or the page budget spent), nothing to publish or acknowledge. */
  idle(budgetLeft: number): boolean {
    const c = this.crawler!;
    return c.sessionsInFlight === 0 && (c.ctx.scheduler.drained || budgetLeft <= 0) && this.store!.outboxSize() === 0 && this.store!.heldSize() === 0 && this.held.length === 0 && this.pending.size === 0;
  }

  /** Messages to publish, and page messages held for a batch. */
  outboxSize(): number {
    return (this.store?.outboxSize() ?? 0) + (this.store?.heldSize() ?? 0);
  }

  /**
   * Seals a batch for every part whose oldest held URLs are batchMs old: one message with the
   * URLs of every page held for it (several when they would pass BATCH_BYTES), into the open
   * write batch (published once it commits).
   */
  private seal(now: number): void {
    for (const part of this.store!.dueParts(now - this.batchMs)) {
      let chunk: HeldRow[] = [];
      let bytes = 0;
      for (const r of this.store!.heldRows(part)) {
        if (chunk.length > 0 && bytes + r.links.length > BATCH_BYTES) {
          this.sealOne(part, chunk, now);
          chunk = [];
          bytes = 0;
        }
        chunk.push(r);
        bytes += r.links.length;
      }
      if (chunk.length > 0) this.sealOne(part, chunk, now);
    }
  }

  /**
   * One batch of held rows. A URL already in it is left out unless this link could lift a limit
   * the earlier one hit (a lower depth or redirect count, or followable where it was nofollow).
   */
  private sealOne(part: number, rows: HeldRow[], now: number): void {
    const first = new Map<string, WireLink[]>();
    const links: WireLink[] = [];
    let urlBytes = 0;
    let pageUrls = 0;
    let pageUrlBytes = 0;
    let heldMs = 0;
    for (const r of rows) {
      pageUrls += r.urls;
      pageUrlBytes += r.urlBytes;
      heldMs += Math.max(0, now - r.at);
      for (const l of JSON.parse(r.links) as WireLink[]) {
        const seen = first.get(l[0]);
        if (seen?.some((e) => e[1] <= l[1] && e[2] <= l[2] && e[4] <= l[4])) continue;
        if (seen) seen.push(l);
        else {
          first.set(l[0], [l]);
          urlBytes += Buffer.byteLength(l[0]);
        }
        links.push(l);
      }
    }
    const lastId = rows[rows.length - 1]!.id;
    const id = `${this.idPrefix}.b${rows[0]!.id}-${lastId}.${part}`;
    const body: LinkMessage = { id, from: this.part, pages: rows.length, pageUrls, pageUrlBytes, links };
    this.store!.seal(part, lastId, id, JSON.stringify(body), links.length, urlBytes, heldMs);
  }

  /**
   * The crawler has made its last commit (it ended or paused): no more messages are taken, and
   * those taken in since that commit, or delivered after the end, are handed back (nak) once the
   * subscription is closed, so that the next run of this part gets them at once, not after the
   * consumer's ack wait (handed back before, they would come straight back to this subscription).
   * `publishMs`: how long the outbox's last publishing may take (0: a broker that did not answer
   * the part's last status; its rows stay for the next run, whose republishing is deduplicated).
   */
  async close(publishMs = CLOSE_PUBLISH_MS): Promise<void> {
    await this.end();
    // A publishing under way may finish (its rows leave the outbox) for a while; a broker that is
    // away leaves them in the outbox for the next run. Then no retry keeps the process alive.
    await waitAtMost(this.publish(), publishMs);
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const m of [...this.held.map((h) => h.m), ...this.late]) m.nak();
    this.held = [];
    this.late = [];
  }

  /**
   * The worker is pausing: no more messages are asked for. Those already on their way are still
   * taken in, into the batch the pause commits last, and so acknowledged with it: a message
   * delivered but never acknowledged would wait out the consumer's ack wait in the next run,
   * since a broker started again keeps it pending.
   */
  stopPulling(): void {
    this.pulling = false;
    void this.messages?.close()?.catch(() => {});
  }

  /** The coordinator ended the crawl: stop taking messages and let the crawler finish. */
  async end(): Promise<void> {
    this.ended = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // The crawler first: the subscription's close waits for its iterator to take the stop, and
    // the crawl's end must not wait on that (a message that comes meanwhile is handed back, take()).
    this.crawler?.wake();
    await waitAtMost(this.messages?.close() ?? Promise.resolve(), CLOSE_PUBLISH_MS);
  }

  private publish(): Promise<void> {
    if (this.publishing || !this.store || this.closed) return this.publishing ?? Promise.resolve();
    this.publishing = this.publishOutbox().finally(() => (this.publishing = null));
    return this.publishing;
  }

  private async publishOutbox(): Promise<void> {
    const store = this.store!;
    try {
      for (let after = 0; ; ) {
        const rows = store.outbox(after, this.committedTop, PUBLISH_CHUNK);
        if (rows.length === 0) break;
        await Promise.all(rows.map((r) => this.js.publish(partSubject(this.name, r.part), r.payload, { msgID: r.msgId, timeout: 10_000 })));
        if (this.closed) return; // its database may be closed: the rows stay, and the next run's republishing is dropped as duplicates
        for (const r of rows) store.published(r.id);
        this.sent += rows.length;
        after = rows[rows.length - 1]!.id;
      }
    } catch (err) {
      if (this.closed) return; // the rows stay in the outbox for the next run
      // The broker is away: the rows stay in the outbox and are published when it answers.
      this.onNote(`part ${this.part}: publishing waits for the broker (${(err as Error).message})`);
      if (!this.retryTimer) this.retryTimer = setTimeout(() => ((this.retryTimer = null), void this.publish()), 1000);
    }
  }

  private async consume(): Promise<void> {
    while (!this.ended && this.pulling) {
      try {
        const consumer = await this.js.consumers.get(streamName(this.name), consumerName(this.part));
        // Pulls expire after 5 s (the client's default is 30 s): a consumer whose leader moved to
        // another server of a cluster is asked again that soon, where the client would back off 30 s.
        const messages = await consumer.consume({ max_messages: 512, expires: 5000, idle_heartbeat: 2000 });
        this.messages = messages;
        if (this.ended || !this.pulling) {
          await messages.close()?.catch(() => {});
          break;
        }
        for await (const m of messages) this.take(m);
      } catch (err) {
        if (this.ended || !this.pulling) break;
        this.onNote(`part ${this.part}: taking URLs waits for the broker (${(err as Error).message})`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** A message's URLs discovered in the open batch; acknowledged after it commits. */
  private take(m: JsMsg): void {
    if (this.ended) return void this.late.push(m); // handed back by close(), for whoever takes this part next
    const read = readLinkMessage(m.string(), this.assignment.k);
    const ctx = this.crawler!.ctx;
    if ('problem' in read) {
      // Never taken: told once, counted, and acknowledged so that it is not delivered again and the
      // crawl can end (a term with a reason is not understood by nats-server 2.9: it came back).
      ctx.counters.bump('exchange:refused');
      if (this.refused++ === 0) this.onNote(`part ${this.part}: a message on its subject was refused, ${read.problem}; such messages are counted (exchange:refused) and dropped`);
      m.ack();
      return;
    }
    if (read.dropped > 0) ctx.counters.bump('exchange:refused-urls', read.dropped);
    const body = read.message;
    if ('shorter' in body) return this.takeShorterPaths(m, body);
    let urlBytes = 0;
    for (const url of new Set(body.links.map((l) => l[0]))) urlBytes += Buffer.byteLength(url);
    const wire = { urls: body.links.length, urlBytes, bytes: m.data.length };
    const page = { messages: body.pages ?? 1, urls: body.pageUrls ?? body.links.length, urlBytes: body.pageUrlBytes ?? urlBytes };
    if (this.store!.receive(body.id, body.from, wire, page)) {
      for (const [url, depth, redirects, anchor, nofollow] of body.links) {
        discover(ctx, { url, depth, parentId: null, redirects, anchor, nofollow: nofollow === 1 });
      }
      this.received++;
      this.crawler!.wake();
    }
    this.held.push({ m, batch: this.store!.batch });
  }

  /** Links found again by a shorter path (shorterPath): discovered at their lower depths, counted apart. */
  private takeShorterPaths(m: JsMsg, body: ShorterPaths): void {
    if (this.store!.receiveApart(body.id)) {
      const ctx = this.crawler!.ctx;
      for (const [url, depth, redirects, anchor, nofollow] of body.links) {
        discover(ctx, { url, depth, parentId: null, redirects, anchor, nofollow: nofollow === 1 });
      }
      ctx.counters.bump('exchange:shorter-paths:received');
      this.crawler!.wake();
    }
    this.held.push({ m, batch: this.store!.batch });
  }
}

/**
 * The start of every message id a part's file sends: the part, and the moment its file was
 * created. JetStream drops a message whose id it saw within 10 minutes, and each part keeps the
 * ids it took in (exchange_seen) for good; ids are numbered by the file's rows, so a part file
 * made again (deleted, or left half-made by a kill) would have sent ids already seen, and every
 * URL in them would have been dropped in silence. A part file of an earlier version takes the
 * prefix when it resumes: the ids it stored before (its outbox) keep theirs, and neither form
 * can be the other (`e...` against a page id or `b...`). A file without created_at (none that
 * crawlbench made) keeps the ids of the part alone.
 */
export function messageIdPrefix(part: number, createdAt: string | undefined): string {
  const at = createdAt === undefined ? NaN : Date.parse(createdAt);
  return Number.isFinite(at) ? `${part}.e${at.toString(36)}` : String(part);
}
