import { uint16Pages } from '../page-array.js';
import type { PageStatus } from './crawl-state.js';

/**
 * What discovery asks of a known page, kept in memory by page id so that a link to a known
 * URL costs no read of its row (bench/frontier: confirming each fingerprint hit by reading the
 * row by id took a tenth of the crawl's time at 2M URLs, a random read per link that grows
 * with the file): its status, whether it has an error code, and its depth, packed in 16 bits
 * (2 bytes per page, in chunks: 50 million pages, 100 MB).
 *
 * A page whose facts say "ask the row" (skipped, carrying an error code, deeper than 4,094, or
 * never told) is read as before; so are the rare pages whose error code or exact URL a caller
 * needs. Every write of the store that changes one of these facts tells this class after its
 * statement succeeded, so they match what the store's connection reads; a rolled-back batch
 * drops them with the URL index, both rebuilt from the file when next asked.
 */
export class PageFacts {
  private readonly facts = uint16Pages();

  /** The packed facts of a page; 0: unknown (read the row). */
  get(id: number): number {
    return this.facts.get(id);
  }
  /** Bytes held (for the benchmarks' accounting). */
  get bytes(): number {
    return this.facts.bytes;
  }

  /** The page's depth, if its facts hold it (any status). */
  depth(id: number): number | undefined {
    const v = this.get(id);
    const depth = v & DEPTH_MASK;
    return v === 0 || depth === DEPTH_UNKNOWN ? undefined : depth;
  }

  set(id: number, status: PageStatus, hasError: boolean, depth: number): void {
    this.put(id, pack(status, hasError, depth));
  }
  /** A page whose status alone changed (its depth kept). */
  setStatus(id: number, status: PageStatus, hasError: boolean): void {
    const v = this.get(id);
    if (v !== 0) this.put(id, pack(status, hasError, v & DEPTH_MASK));
  }
  setDepth(id: number, depth: number): void {
    const v = this.get(id);
    if (v !== 0) this.put(id, (v & ~DEPTH_MASK) | Math.min(depth, DEPTH_UNKNOWN));
  }
  setHasError(id: number, hasError: boolean): void {
    const v = this.get(id);
    if (v !== 0) this.put(id, hasError ? v | ERROR_BIT : v & ~ERROR_BIT);
  }

  private put(id: number, value: number): void {
    this.facts.set(id, value);
  }
}

const STATUSES: readonly PageStatus[] = ['queued', 'fetched', 'duplicate', 'failed', 'skipped', 'disallowed'];
const CODE = new Map(STATUSES.map((s, i) => [s, i + 1]));
const ERROR_BIT = 1 << 12;
const DEPTH_MASK = (1 << 12) - 1;
/** Depths from here on are not kept: the row is read. */
const DEPTH_UNKNOWN = DEPTH_MASK;

function pack(status: PageStatus, hasError: boolean, depth: number): number {
  return (CODE.get(status)! << 13) | (hasError ? ERROR_BIT : 0) | Math.min(Math.max(depth, 0), DEPTH_UNKNOWN);
}

/**
 * A known page as discovery sees it, answered from its packed facts: undefined when the row
 * must be read (unknown, skipped, with an error code, or too deep to keep).
 */
export function plainPage(v: number): { status: PageStatus; depth: number } | undefined {
  const code = v >>> 13;
  if (code === 0 || (v & ERROR_BIT) !== 0 || (v & DEPTH_MASK) === DEPTH_UNKNOWN) return undefined;
  const status = STATUSES[code - 1]!;
  return status === 'skipped' ? undefined : { status, depth: v & DEPTH_MASK };
}
