/**
 * How many heavy jobs the engine runs at once. Each is a worker thread that may load a crawl's
 * whole graph (about 400 MiB for 10M links) or walk all its pages: sixteen comparisons asked
 * for at once took the server from 222 MiB to 1,371 MiB. A page (or a script) asking for many
 * at once must not take the engine down, so a job past the cap is refused, in words, with
 * CRAWL_DB_LOCKED (busy: try again once one has ended), never queued out of the user's sight.
 * Analyses (PageRank, evaluations) have slots of their own (analysis-jobs.ts); comparisons,
 * exports, graph exports and partitionings share one set (heavyJobSlots).
 */
import { CrawlError, ErrorCodes } from '../errors.js';

/** Jobs of one kind at once: the machine's two cores are shared with crawls and the UI. */
export const JOBS_AT_ONCE = 2;

export class JobSlots {
  /** What each running job is, in words ('a comparison of "a" and "b"'), and the crawls it reads. */
  private readonly held: Array<{ what: string; reads: readonly string[] }> = [];

  constructor(
    private readonly max: number,
    /** The refusal's words, given what runs. */
    private readonly refusal: (running: readonly string[]) => string,
  ) {}

  /** Refuses (CRAWL_DB_LOCKED) when every slot is taken: before a dialog that would only lead to a refusal. */
  check(): void {
    if (this.held.length >= this.max) throw new CrawlError(ErrorCodes.DB_LOCKED, this.refusal(this.held.map((h) => h.what)));
  }

  /**
   * Takes a slot for job `what`, which reads the crawls `reads` (refused as check() is); the
   * function returned gives it back (once).
   */
  take(what: string, reads: readonly string[]): () => void {
    this.check();
    const entry = { what, reads };
    this.held.push(entry);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.held.splice(this.held.indexOf(entry), 1);
    };
  }

  /** Runs `fn` in a slot of its own, given back when it settles. */
  async run<T>(what: string, reads: readonly string[], fn: () => Promise<T>): Promise<T> {
    const release = this.take(what, reads);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * The job reading crawl `id`, in words, or null: deleting a crawl under a job would let a new
   * crawl of the same name be read by it (and the job's end remove that crawl's lock).
   */
  reading(id: string): string | null {
    return this.held.find((h) => h.reads.includes(id))?.what ?? null;
  }
}

/** The slots comparisons, exports, graph exports and partitionings share. */
export function heavyJobSlots(): JobSlots {
  return new JobSlots(JOBS_AT_ONCE, (running) => `${running.length} jobs are running (${running.join('; ')}), as many as the engine runs at once; wait for one to end or cancel it`);
}
