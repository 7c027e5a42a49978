/**
 * The crawls of the workspace and what changes a crawl's state (start, pause, resume, stop,
 * delete). Which crawl a view shows is not kept here: it is in the route (/crawls/:id/...), so a
 * reload keeps the place. PageRank and the evaluation are the Results view's (stores/results.ts).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CrawlInfo, CrawlStateEvent, Unsubscribe } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';

/** 'list', or an action on one crawl: 'pause:demo1'. Resume and start share `start:`. */
export type CrawlActionKey = 'list' | `${'start' | 'pause' | 'stop' | 'delete'}:${string}`;

export const useCrawlsStore = defineStore('crawls', () => {
  const { run, status } = asyncActions<CrawlActionKey>();
  const crawls = ref<CrawlInfo[]>([]);
  /** False until the first list came: a view tells "not loaded yet" from "no such crawl". */
  const loaded = ref(false);

  function byId(id: string | null | undefined): CrawlInfo | null {
    return id ? (crawls.value.find((c) => c.id === id) ?? null) : null;
  }

  /** The list asked last (run never throws: it settles either way). */
  let listing: Promise<void> = Promise.resolve();
  function refresh(): Promise<void> {
    return (listing = list());
  }
  async function list(): Promise<void> {
    const out = await run('list', () => useApi().listCrawls());
    if (out.ok && !out.stale) {
      crawls.value = out.value;
      loaded.value = true;
    }
  }
  /** Settles once the list asked last is here (one asked meanwhile included): what applyState ran ahead of. */
  async function listed(): Promise<void> {
    let asked: Promise<void>;
    do {
      asked = listing;
      await asked;
    } while (asked !== listing);
  }

  /** Applies a state event at once, so buttons follow without waiting for a refresh. */
  function applyState(e: CrawlStateEvent): void {
    const c = byId(e.crawlId);
    if (c) c.status = e.status;
    void refresh();
  }

  /** Follows state changes made anywhere (another window, the CLI, a run ending). */
  function subscribe(): Unsubscribe {
    return useApi().onCrawlState(applyState);
  }

  /** Runs one action on a crawl, then refreshes the list; true when the action succeeded. */
  async function act(key: CrawlActionKey, fn: () => Promise<unknown>): Promise<boolean> {
    const out = await run(key, fn);
    await refresh();
    return out.ok;
  }

  const start = (id: string) => act(`start:${id}`, () => useApi().start(id));
  const pause = (id: string) => act(`pause:${id}`, () => useApi().pause(id));
  const resume = (id: string) => act(`start:${id}`, () => useApi().resume(id));
  /** Ends the crawl for good (the view asks for confirmation first). */
  const stop = (id: string) => act(`stop:${id}`, () => useApi().stop(id));
  const remove = (id: string) => act(`delete:${id}`, () => useApi().deleteCrawl(id));

  return { ...status, crawls, loaded, byId, refresh, listed, applyState, subscribe, start, pause, resume, stop, remove };
});
