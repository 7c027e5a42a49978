/**
 * The link exchange of a finished parallel crawl as its summary states it: what was measured on
 * the wire, what it was in the thesis's units before batching (one message per fetched page and
 * remote part: partition-eval's messages and volume), the lease traffic apart, and the causes of
 * the difference between the prediction and the measurement: messages merged by
 * --exchange-batch, URLs a batch carried once for several pages, and what those do not explain.
 */
import type { ExchangeCount } from '../store/exchange-store.js';
import type { MergeResult } from '../store/merge-parts.js';
import type { Prediction } from './prediction.js';

export interface ExchangeMeasured {
  /** On the wire: messages sent, the bytes of the URLs they carried (the thesis's volume), their bytes. */
  messages: number;
  volume: number;
  wireBytes: number;
  /** Before batching: page messages and their URL bytes (equal to the above without --exchange-batch). */
  pageMessages: number;
  pageVolume: number;
}

export interface Batching {
  /** --exchange-batch in ms. */
  batchMs: number;
  /** Page messages carried in fewer messages: pageMessages − messages. */
  messagesMerged: number;
  /** URLs a batch carried once for several of its pages, and their bytes. */
  urlsMerged: number;
  bytesSaved: number;
  /** How long a page's URLs waited for their batch, on average (ms; then the next commit, about a second at most). */
  meanHeldMs: number;
}

export interface ExchangeDifference {
  /** predicted − measured. */
  messages: number;
  volume: number;
  /** The part of the difference the causes stated (batching) do not explain: predicted − before batching. */
  unexplainedMessages: number;
  unexplainedVolume: number;
}

export interface ExchangeAccount {
  measured: ExchangeMeasured;
  batching: Batching | null;
  difference: ExchangeDifference | null;
  /** Requests to the site-lease bucket (a page assignment's politeness) and their bytes, apart from the exchange. */
  leases: { requests: number; bytes: number };
}

const sum = (rows: ExchangeCount[], f: (e: ExchangeCount) => number) => rows.reduce((n, e) => n + f(e), 0);

export function exchangeAccount(merge: MergeResult, batchMs: number, prediction: Prediction | null): ExchangeAccount {
  const sent = merge.exchange.filter((e) => e.direction === 'sent');
  const measured: ExchangeMeasured = {
    messages: sum(sent, (e) => e.messages),
    volume: sum(sent, (e) => e.urlBytes),
    wireBytes: sum(sent, (e) => e.wireBytes),
    pageMessages: sum(sent, (e) => e.pageMessages),
    pageVolume: sum(sent, (e) => e.pageUrlBytes),
  };
  const batching: Batching | null =
    batchMs > 0
      ? {
          batchMs,
          messagesMerged: measured.pageMessages - measured.messages,
          urlsMerged: sum(sent, (e) => e.pageUrls - e.urls),
          bytesSaved: measured.pageVolume - measured.volume,
          meanHeldMs: measured.pageMessages > 0 ? Math.round(sum(sent, (e) => e.heldMs) / measured.pageMessages) : 0,
        }
      : null;
  const difference: ExchangeDifference | null = prediction
    ? {
        messages: prediction.messages - measured.messages,
        volume: prediction.volume - measured.volume,
        unexplainedMessages: prediction.messages - measured.pageMessages,
        unexplainedVolume: prediction.volume - measured.pageVolume,
      }
    : null;
  const leases = { requests: merge.workers.reduce((n, w) => n + w.leaseRequests, 0), bytes: merge.workers.reduce((n, w) => n + w.leaseBytes, 0) };
  return { measured, batching, difference, leases };
}

/** The account's lines in the summary (after the measured and predicted lines). */
export function accountLines(a: ExchangeAccount): string[] {
  const lines: string[] = [];
  const b = a.batching;
  if (b) {
    lines.push(
      `  batching (--exchange-batch ${b.batchMs} ms): ${a.measured.pageMessages} page messages sent in ${a.measured.messages} messages, ` +
        `URLs held ${b.meanHeldMs} ms on average; ${b.urlsMerged} URLs sent once for several pages (${b.bytesSaved} bytes)`,
    );
  }
  const d = a.difference;
  if (d) {
    const causes = b ? `merged by batching ${b.messagesMerged} messages and ${b.bytesSaved} bytes` : 'no batching';
    lines.push(`  difference (predicted - measured): ${d.messages} messages, ${d.volume} bytes; causes: ${causes}; not explained by them: ${d.unexplainedMessages} messages, ${d.unexplainedVolume} bytes`);
  }
  lines.push(`  lease traffic (apart from the exchange): ${a.leases.requests} requests, ${a.leases.bytes} bytes`);
  return lines;
}
