// @vitest-environment happy-dom
/**
 * A seed file in New crawl (issue 23): over the limit of a seed file it is refused at the field
 * with its size and the limit, and nothing is sent; a file too long for one message goes up in
 * chunks, its seeds and problems counted in the seed box, and the crawl is created from the
 * upload. And the words the window says when the engine closes its connection (1009).
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_LIMITS } from '../../core/api/limits.js';
import { closeInWords } from '../../core/api/ws-client.js';
import { connectionStatus } from '../../renderer/api/connection.js';
import { provideApi } from '../../renderer/api/instance.js';
import { fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;

beforeEach(() => {
  fake = fakeApi();
  provideApi(fake.api);
});
afterEach(() => {
  unmountWorkbench();
  connectionStatus.value = null;
});

/** Chooses `file` in the seed file input, as the file dialog would. */
async function choose(w: VueWrapper, file: File): Promise<void> {
  const input = w.find('[data-testid="seed-file-input"]');
  Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
  await input.trigger('change');
  await flushPromises();
}

/** `count` distinct seed URLs, one a line. */
const seedLines = (count: number) => Array.from({ length: count }, (_, i) => `http://a.test/seeds/${String(i).padStart(8, '0')}`).join('\n');

describe('a seed file in New crawl', () => {
  it('refuses a file over the limit at the field, with its size and the limit, reading and sending nothing', async () => {
    const { w } = await openAt('/new');
    await w.find('[data-testid="real-seeds"]').setValue(true);
    const file = new File(['http://a.test/'], 'national-web.txt', { type: 'text/plain' });
    Object.defineProperty(file, 'size', { value: 70 * 1024 * 1024 });
    const read = vi.spyOn(file, 'text');
    await choose(w, file);
    expect(w.find('[data-testid="seed-file-error"]').text()).toBe(
      'national-web.txt is 70 MiB: a seed file can be at most 64 MiB; split it, or keep the hosts or domain suffixes (.cl) of its URLs.',
    );
    expect(w.find('[data-testid="seed-file-error"]').attributes('role')).toBe('alert');
    expect(read).not.toHaveBeenCalled();
    expect(fake.calls.filter((c) => c.startsWith('uploadSeeds') || c.startsWith('parseSeeds'))).toEqual([]);
    expect(w.find('[data-testid="seeds"]').exists()).toBe(true);
    // The limit is said at the input too.
    expect(w.find('label.file').text()).toMatch(/at most 64 MiB/);
  });

  it('sends a file too long for one message in chunks, counts its seeds and problems, and creates the crawl from the upload', async () => {
    const { w, router } = await openAt('/new');
    await w.find('[data-testid="real-seeds"]').setValue(true);
    const text = `${seedLines(20_000)}\nnot a seed\n`;
    expect(text.length).toBeGreaterThan(API_LIMITS.seedTextChars);
    await choose(w, new File([text], 'seeds.txt', { type: 'text/plain' }));
    // Kept as a file, not in the box.
    expect(w.find('[data-testid="seeds"]').exists()).toBe(false);
    expect(w.find('[data-testid="seed-file"]').text()).toMatch(/^Seed file seeds\.txt \(\d+(\.\d)? KiB\): too long to show here/);
    await vi.waitFor(() => expect(w.find('[data-testid="seed-summary"]').exists()).toBe(true), { timeout: 5000 });
    expect(w.find('[data-testid="seed-summary"]').text()).toBe('20,000 URLs, 0 hosts, 0 suffixes; 1 line needs fixing before anything is crawled');
    expect(w.find('[data-testid="seed-problems"]').text()).toMatch(/^line 20001: “not a seed” — /);
    const parts = Math.ceil(text.length / API_LIMITS.seedChunkChars);
    expect(fake.calls.filter((c) => c.startsWith('uploadSeeds')).map((c) => c.split(' ')[2])).toEqual(Array.from({ length: parts }, (_, i) => String(i)));
    expect(fake.calls).toContain('parseSeeds upload');
    expect((w.find('[data-testid="create"]').element as HTMLButtonElement).disabled).toBe(true);

    // Another file, all good: created from its upload, every seed in the crawl.
    fake.calls.length = 0;
    await choose(w, new File([seedLines(30_000)], 'good.txt'));
    await vi.waitFor(() => expect(w.find('[data-testid="seed-summary"]').text()).toBe('30,000 URLs, 0 hosts, 0 suffixes'), { timeout: 5000 });
    const sent: unknown[] = [];
    const createCrawl = fake.api.createCrawl;
    fake.api.createCrawl = (req) => (sent.push(req), createCrawl(req));
    await w.find('[data-testid="name"]').setValue('from-file');
    await w.find('[data-testid="w"]').setValue('15');
    await w.find('form.new-crawl').trigger('submit');
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('live'), { timeout: 5000 });
    expect(sent).toEqual([expect.objectContaining({ name: 'from-file', seedUploadId: expect.stringMatching(/^seeds-/) })]);
    expect(sent[0]).not.toHaveProperty('seedText');
    // The parse's upload is reused: the file went up once.
    expect(fake.calls.filter((c) => c.startsWith('uploadSeeds') && c.endsWith(' 0'))).toHaveLength(1);
    expect((await fake.api.crawlSettings('from-file')).seeds).toHaveLength(30_000);
  });

  it('takes a short file into the box, as before, and Type seeds instead puts a long one aside', async () => {
    const { w } = await openAt('/new');
    await w.find('[data-testid="real-seeds"]').setValue(true);
    await choose(w, new File(['http://a.test/\n.cl\n'], 'short.txt'));
    expect((w.find('[data-testid="seeds"]').element as HTMLTextAreaElement).value).toBe('http://a.test/\n.cl\n');
    await choose(w, new File([seedLines(20_000)], 'long.txt'));
    expect(w.find('[data-testid="seeds"]').exists()).toBe(false);
    await w.find('[data-testid="seed-file-clear"]').trigger('click');
    expect((w.find('[data-testid="seeds"]').element as HTMLTextAreaElement).value).toBe('');
    expect(w.find('[data-testid="seed-file"]').exists()).toBe(false);
  });
});

describe('the connection note', () => {
  it('says a connection closed with 1009 in words naming the limit, while it reopens and after', async () => {
    const { w } = await openAt('/new');
    expect(w.find('[data-testid="connection-note"]').exists()).toBe(false);
    const reason = 'a message of 4.6 MiB is over the 4 MiB limit of one API message';
    const closed = { code: 1009, reason, words: closeInWords(1009, reason) };
    connectionStatus.value = { state: 'reconnecting', closed, attempt: 1 };
    await flushPromises();
    expect(w.find('[data-testid="connection-note"]').text()).toBe(
      'The engine closed the connection because a request was too large: a message of 4.6 MiB is over the 4 MiB limit of one API message. Connecting again…',
    );
    connectionStatus.value = { state: 'open', after: closed };
    await flushPromises();
    expect(w.find('[data-testid="connection-note"]').text()).toMatch(/^The engine closed the connection because a request was too large: .*\. Connected again: the workbench carries on/);
    await w.find('[data-testid="connection-note"] button').trigger('click');
    expect(w.find('[data-testid="connection-note"]').exists()).toBe(false);
    // Past ws's own cap the socket closes with no reason: the limit is named all the same.
    expect(closeInWords(1009)).toBe('the engine closed the connection because a request was too large (over the 4 MiB limit of one API message)');
  });
});
