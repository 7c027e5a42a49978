/**
 * One worker's side of the link exchange (docs/architecture.md, "The path of a URL that
 * crosses parts"):
 *
 * - out: the engine hands every URL it finds for another part to foreign(); when the page's
 *   links are all discovered, pageDone() writes one message per remote part carrying every URL
 *   of that page for that part (the thesis's message, §5.1) into the outbox, in the write
 *   batch that stores the page. After each commit the outbox is published to the part's
 *   subject with the message id (part, page) for JetStream's dedup, and a row leaves the
 *   outbox only once JetStream has acknowledged it: a broker that is away is waited for.
 * - in: part I's durable consumer; each message's URLs are discovered (the URL-seen test
 *   absorbs a redelivery) in the open batch, and the message is acknowledged after the batch
 *   that holds them is committed, so a killed worker loses nothing.
 */
import type { JetStreamClient, JsMsg, ConsumerMessages } from '@nats-io/jetstream';
import type { Crawler } from '../engine/crawler.js';
import type { ForeignLink, PartHook } from '../engine/context.js';
import { discover } from '../engine/discovery.js';
import type { ExchangeStore } from '../store/exchange-store.js';
import { DISCOVERER, type Assignment } from './assignment.js';
import { consumerName, partSubject, streamName } from './definition.js';

/** A message of the exchange: the URLs page `src` of part `from` links to in the receiving part. */
interface LinkMessage {
  id: string;
  from: number;
  src: string;
  /** [url, depth, redirects, anchor, nofollow] */
  links: [string, number, number, string | null, 0 | 1][];
}

const PUBLISH_CHUNK = 256;

export class PartExchange implements PartHook {
  private readonly pending = new Map<number, Map<string, ForeignLink>>();
  private crawler: Crawler | null = null;
  private store: ExchangeStore | null = null;
  private ended = false;
  private publishing = false;
  private held: JsMsg[] = [];
  private messages: ConsumerMessages | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Messages taken in and published by this process (for the status line). */
  received = 0;
  sent = 0;

  constructor(
    readonly part: number,
    private readonly name: string,
    private readonly assignment: Assignment,
    private readonly js: JetStreamClient,
    private readonly onNote: (line: string) => void,
  ) {}

  // ---- the engine's hook -----------------------------------------------------------------
  mine(url: string, seed: boolean): boolean {
    const owner = seed ? this.assignment.seedOwner(url) : this.assignment.ownerOf(url);
    return owner === this.part || owner === DISCOVERER;
  }

  foreign(d: ForeignLink): void {
    if (d.parentId === null) return; // a seed: every worker has the seeds, its owner crawls it
    const part = this.assignment.ownerOf(d.url);
    let links = this.pending.get(part);
    if (!links) this.pending.set(part, (links = new Map()));
    if (!links.has(d.url)) links.set(d.url, d);
  }

  pageDone(pageId: number, url: string): void {
    if (this.pending.size === 0) return;
    for (const [part, links] of this.pending) {
      const id = `${this.part}.${pageId}.${part}`;
      let urlBytes = 0;
      const body: LinkMessage = { id, from: this.part, src: url, links: [] };
      for (const l of links.values()) {
        urlBytes += Buffer.byteLength(l.url);
        body.links.push([l.url, l.depth, l.redirects, l.anchor, l.nofollow ? 1 : 0]);
      }
      this.store!.send(id, part, JSON.stringify(body), links.size, urlBytes);
    }
    this.pending.clear();
  }

  holdOpen(): boolean {
    return !this.ended;
  }

  // ---- the worker's side -------------------------------------------------------------------
  /** Binds the running crawler and its exchange tables; publishing and consuming start with its first commit. */
  attach(crawler: Crawler, store: ExchangeStore): void {
    this.crawler = crawler;
    this.store = store;
    let started = false;
    crawler.on('commit', () => {
      for (const m of this.held) m.ack();
      this.held = [];
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
    return c.sessionsInFlight === 0 && (c.ctx.scheduler.drained || budgetLeft <= 0) && this.store!.outboxSize() === 0 && this.held.length === 0 && this.pending.size === 0;
  }

  outboxSize(): number {
    return this.store?.outboxSize() ?? 0;
  }

  /** The coordinator ended the crawl: stop taking messages and let the crawler finish. */
  async end(): Promise<void> {
    this.ended = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.messages?.close()?.catch(() => {});
    this.crawler?.wake();
  }

  private async publish(): Promise<void> {
    if (this.publishing || !this.store) return;
    this.publishing = true;
    try {
      for (let after = 0; ; ) {
        const rows = this.store.outbox(after, PUBLISH_CHUNK);
        if (rows.length === 0) break;
        await Promise.all(rows.map((r) => this.js.publish(partSubject(this.name, r.part), r.payload, { msgID: r.msgId, timeout: 10_000 })));
        for (const r of rows) this.store.published(r.id);
        this.sent += rows.length;
        after = rows[rows.length - 1]!.id;
      }
    } catch (err) {
      // The broker is away: the rows stay in the outbox and are published when it answers.
      this.onNote(`part ${this.part}: publishing waits for the broker (${(err as Error).message})`);
      if (!this.retryTimer) this.retryTimer = setTimeout(() => ((this.retryTimer = null), void this.publish()), 1000);
    } finally {
      this.publishing = false;
    }
  }

  private async consume(): Promise<void> {
    while (!this.ended) {
      try {
        const consumer = await this.js.consumers.get(streamName(this.name), consumerName(this.part));
        this.messages = await consumer.consume({ max_messages: 512, idle_heartbeat: 2000 });
        for await (const m of this.messages) this.take(m);
      } catch (err) {
        if (this.ended) break;
        this.onNote(`part ${this.part}: taking URLs waits for the broker (${(err as Error).message})`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** A message's URLs discovered in the open batch; acknowledged after it commits. */
  private take(m: JsMsg): void {
    if (this.ended) return;
    const body = JSON.parse(m.string()) as LinkMessage;
    let urlBytes = 0;
    for (const l of body.links) urlBytes += Buffer.byteLength(l[0]);
    if (this.store!.receive(body.id, body.from, body.links.length, urlBytes, m.data.length)) {
      const ctx = this.crawler!.ctx;
      for (const [url, depth, redirects, anchor, nofollow] of body.links) {
        discover(ctx, { url, depth, parentId: null, redirects, anchor, nofollow: nofollow === 1 });
      }
      this.received++;
      this.crawler!.wake();
    }
    this.held.push(m);
  }
}
