import type { CrawlSettings } from '../config/settings.js';
import { ParsePool } from '../parse/parse-pool.js';
import { CrawlStore } from '../store/crawl-store.js';
import { StoreWriter, type WriteFailed } from '../store/store-writer.js';
import type { CrawlContext } from './context.js';
import { threadPlan } from './thread-plan.js';

/** What a crawl says about its threads (CrawlerOptions). */
export interface CrawlThreadOptions {
  /** true or false: a writer thread (store-writer.ts) or none, whatever the crawl's share of cores (thread-plan.ts). */
  writer?: boolean;
  /** Parse threads (parse-pool.ts), whatever the crawl's share of cores. */
  parseThreads?: number;
  /** Pages parsed inline before the parse threads take over (default PARSE_INLINE_FIRST; 0: every page on a thread). */
  parseInlineFirst?: number;
  /** The writer thread's compiled file (a bundle names its own). */
  writerFile?: string;
  /** Crawls sharing the machine's cores with this one (a parallel crawl's K): its threads are sized from its share (thread-plan.ts). */
  crawlsOnMachine?: number;
}

/**
 * The threads of one run of a crawl beside the crawl's own: the writer thread, which commits
 * the store's write batches (store-writer.ts), and the parse pool (parse-pool.ts), as many as
 * the crawl's share of the machine's cores calls for (thread-plan.ts). Started when the run
 * starts, ended when it ends, once every batch is committed.
 */
export class CrawlThreads {
  private writerThread: StoreWriter | null = null;
  private readonly plan;

  constructor(
    private readonly ctx: CrawlContext,
    private readonly opts: CrawlThreadOptions,
  ) {
    const plan = threadPlan(opts.crawlsOnMachine);
    this.plan = { writer: opts.writer ?? plan.writer, parseThreads: opts.parseThreads ?? plan.parseThreads };
  }

  /** The writer, while the run has one. */
  get writer(): StoreWriter | null {
    return this.writerThread;
  }

  /**
   * Starts the threads (those whose compiled file is there): the store's writes go to the
   * writer from now on, `committed` is told each batch it commits, `failed` a batch it could not.
   */
  start(committed: (batch: number) => void, failed: (err: WriteFailed) => void): void {
    const { store, settings } = this.ctx;
    if (this.plan.writer) {
      const writer = StoreWriter.start({ path: store.path, pragmas: [...CrawlStore.writerPragmas(), ...sizePragmas(settings, store)] }, this.opts.writerFile);
      if (writer) {
        store.attachWriter(writer);
        writer.on('committed', committed);
        writer.on('failed', failed);
        this.writerThread = writer;
      }
    }
    this.ctx.parser = ParsePool.start(this.plan.parseThreads, undefined, this.opts.parseInlineFirst);
  }

  /** Every batch committed (or given up), the writes back on the crawl's thread, the threads ended. */
  async close(): Promise<void> {
    const parser = this.ctx.parser;
    this.ctx.parser = null;
    await parser?.close();
    const writer = this.writerThread;
    if (!writer) return;
    await writer.drain();
    this.ctx.store.detachWriter();
    this.writerThread = null;
    await writer.close();
  }

  /** Ends the threads at once (the crawl is closed without ending its run: as a crash, nothing more is committed). */
  terminate(): void {
    void this.ctx.parser?.close();
    this.ctx.parser = null;
  }
}

/** The file's size budget (--max-db-size), for every connection that writes it. */
export function sizePragmas(settings: CrawlSettings, store: CrawlStore): string[] {
  if (settings.maxDbSize === null) return [];
  const pageSize = store.db.pragma('page_size', { simple: true }) as number;
  return [`max_page_count = ${Math.max(16, Math.floor(settings.maxDbSize / pageSize))}`];
}
