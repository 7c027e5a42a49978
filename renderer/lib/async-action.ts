/**
 * Pending and error state per action, for the stores. Each action has a key ('create',
 * 'pause:demo1', 'lookup') with its own pending flag and its own last error, so that a view
 * shows "busy" and "failed" where that action was taken, and the message goes when it is
 * dismissed or the action is tried again, instead of one busy flag and one banner shared by
 * every view. Errors are put into words once, here (user-error.ts).
 *
 * A store keeps `run` to itself and hands `status` to its views:
 *
 *   const { run, status } = asyncActions<'create' | `start:${string}`>();
 *   async function create(req) { const out = await run('create', () => api.createCrawl(req)); ... }
 *   return { ...status, create };
 */
import { reactive } from 'vue';
import { userError, type UserError } from './user-error.js';

/**
 * How one run ended. `stale` is true when a later run of the same key started before this one
 * ended: that later run owns the key's pending flag and error, and a store should drop a stale
 * value rather than let an old answer (a lookup typed over, a crawl left) overwrite a new one.
 */
export type Outcome<T> = { ok: true; value: T; stale: boolean } | { ok: false; error: UserError; stale: boolean };

/** What views read: typed keys, so that a misspelt key is a compile error, not a silent null. */
export interface ActionStatus<K extends string> {
  /** Keys of actions under way (absent when not). */
  readonly pending: Partial<Record<K, true>>;
  /** The last error of each action, until dismissed or tried again (absent when none). */
  readonly failures: Partial<Record<K, UserError>>;
  isPending(key: K): boolean;
  errorOf(key: K): UserError | null;
  dismiss(key: K): void;
}

export interface AsyncActions<K extends string> {
  /** Runs `fn` as action `key`: pending while it runs, its error kept in words; never throws. */
  run<T>(key: K, fn: () => Promise<T>): Promise<Outcome<T>>;
  status: ActionStatus<K>;
}

export function asyncActions<K extends string = string>(): AsyncActions<K> {
  const pending = reactive({}) as Partial<Record<K, true>>;
  const failures = reactive({}) as Partial<Record<K, UserError>>;
  // Not reactive: only `run` reads it, to tell the latest run of a key from older ones.
  const latest = new Map<K, number>();
  let runs = 0;

  async function run<T>(key: K, fn: () => Promise<T>): Promise<Outcome<T>> {
    const mine = ++runs;
    latest.set(key, mine);
    pending[key] = true;
    delete failures[key];
    const isLatest = () => latest.get(key) === mine;
    try {
      const value = await fn();
      return { ok: true, value, stale: !isLatest() };
    } catch (err) {
      const error = userError(err);
      if (isLatest()) failures[key] = error;
      return { ok: false, error, stale: !isLatest() };
    } finally {
      if (isLatest()) {
        delete pending[key];
        latest.delete(key);
      }
    }
  }

  return {
    run,
    status: {
      pending,
      failures,
      isPending: (key) => pending[key] === true,
      errorOf: (key) => failures[key] ?? null,
      dismiss: (key) => void delete failures[key],
    },
  };
}
