import { describe, expect, it } from 'vitest';
import { isReactive } from 'vue';
import { asyncActions } from '../../renderer/lib/async-action.js';

/** A promise the test settles by hand, to look at the state while an action runs. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const crawlError = (code: string, message: string, field?: string) => Object.assign(new Error(message), { name: 'CrawlError', code, field });

describe('asyncActions', () => {
  it('is pending while an action runs, per key, and hands back its value', async () => {
    const { run, status } = asyncActions<'a' | 'b'>();
    expect(isReactive(status.pending)).toBe(true);
    const d = deferred<number>();
    const p = run('a', () => d.promise);
    expect(status.isPending('a')).toBe(true);
    expect(status.isPending('b')).toBe(false);
    d.resolve(7);
    expect(await p).toEqual({ ok: true, value: 7, stale: false });
    expect(status.isPending('a')).toBe(false);
    expect(status.pending).toEqual({});
  });

  it('keeps an error in words with its action until dismissed or tried again, and never throws', async () => {
    const { run, status } = asyncActions<'create' | 'pause:x'>();
    const out = await run('create', () => Promise.reject(crawlError('CRAWL_BAD_OPTION', 'w: must be a number', 'w')));
    expect(out).toMatchObject({ ok: false, stale: false });
    expect(status.errorOf('create')).toEqual({ field: 'w', code: 'CRAWL_BAD_OPTION', text: 'Must be a number' });
    expect(status.errorOf('pause:x')).toBeNull();
    expect(status.isPending('create')).toBe(false);
    status.dismiss('create');
    expect(status.errorOf('create')).toBeNull();

    await run('create', () => Promise.reject(crawlError('CRAWL_BAD_SEED', 'no seed')));
    expect(status.errorOf('create')?.text).toBe('No seed');
    // Tried again: the old message goes at once, not when the new try ends.
    const d = deferred<string>();
    const again = run('create', () => d.promise);
    expect(status.errorOf('create')).toBeNull();
    d.resolve('ok');
    expect(await again).toMatchObject({ ok: true, value: 'ok' });
    expect(status.errorOf('create')).toBeNull();
  });

  it('lets the latest run of a key own its state: an older run ending later is stale and changes nothing', async () => {
    const { run, status } = asyncActions<'lookup'>();
    const first = deferred<string>();
    const second = deferred<string>();
    const p1 = run('lookup', () => first.promise);
    const p2 = run('lookup', () => second.promise);
    second.resolve('new');
    expect(await p2).toEqual({ ok: true, value: 'new', stale: false });
    expect(status.isPending('lookup')).toBe(false);
    first.reject(crawlError('CRAWL_INTERNAL', 'old failure'));
    expect(await p1).toMatchObject({ ok: false, stale: true });
    expect(status.errorOf('lookup')).toBeNull();

    // The older run still pending keeps no flag up once the latest is done.
    const slow = deferred<string>();
    const p3 = run('lookup', () => slow.promise);
    const p4 = run('lookup', () => Promise.resolve('fast'));
    await p4;
    expect(status.isPending('lookup')).toBe(false);
    slow.resolve('late');
    expect(await p3).toEqual({ ok: true, value: 'late', stale: true });
    expect(status.isPending('lookup')).toBe(false);
  });

  it('turns anything thrown into words, not only CrawlErrors', async () => {
    const { run, status } = asyncActions();
    await run('x', async () => {
      throw 'socket closed';
    });
    expect(status.errorOf('x')).toEqual({ field: null, code: null, text: 'Socket closed' });
  });
});
