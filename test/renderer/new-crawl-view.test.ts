// @vitest-environment happy-dom
/**
 * New crawl's refusals (issue 23): whatever the engine refuses is said in the form's words,
 * naming the field it is about, at that field and beside Create, never in the validator's own
 * words ("Too big: expected string to have <=100 characters").
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;

beforeEach(() => {
  fake = fakeApi();
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

async function create(w: VueWrapper) {
  await w.find('form.new-crawl').trigger('submit');
  await flushPromises();
}

const VALIDATOR = /Too big|Too small|expected|Invalid input|<=|>=/;

describe('New crawl refusals', () => {
  it('says a 300-character name is too long in the form’s words, naming the field', async () => {
    const { w } = await openAt('/new');
    await w.find('[data-testid="name"]').setValue('n'.repeat(300));
    await create(w);
    const atField = w.find('[data-testid="name"] ~ .field-error').text();
    expect(atField).toBe('Name: must be at most 100 characters (this one has 300)');
    // Checked by the form with the engine's schema: nothing is sent, the note beside Create says it too.
    const note = w.find('[data-testid="create-error"]').text();
    expect(note).toBe('One field needs fixing: Name: must be at most 100 characters (this one has 300)');
    expect(fake.calls.filter((c) => c.startsWith('createCrawl'))).toEqual([]);
    expect(`${atField} ${note}`).not.toMatch(VALIDATOR);
    expect(fake.crawls.size).toBe(0);
  });

  it('names the field of every refusal the engine sends back, by the form’s label', async () => {
    fake.crawls.set('taken', crawlInfo('taken'));
    const { w } = await openAt('/new');
    await w.find('[data-testid="name"]').setValue('taken');
    await create(w);
    expect(w.find('[data-testid="name"] ~ .field-error').text()).toBe('Name: a crawl named "taken" already exists');
    // A refusal about a field the form shows no box for is still said with that field's name.
    fake.api.createCrawl = () => Promise.reject(Object.assign(new Error('userAgent: must be at most 1,000 characters (this one has 2,000)'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'userAgent' }));
    await w.find('[data-testid="name"]').setValue('fresh');
    await create(w);
    expect(w.find('[data-testid="create-error"]').text()).toMatch(/^User agent: must be at most 1,000 characters/);
  });

  it('offers sitemaps, off by default, with a tooltip: ticked, the crawl reads them', async () => {
    for (const [name, tick] of [['plain', false], ['with-sitemaps', true]] as const) {
      const { w } = await openAt('/new');
      const box = w.find('[data-testid="sitemaps"]');
      expect((box.element as HTMLInputElement).checked).toBe(false);
      expect(box.element.closest('label')!.getAttribute('title')).toMatch(/sitemap/i);
      await w.find('[data-testid="real-seeds"]').setValue(true);
      await w.find('[data-testid="seeds"]').setValue('http://a.test/');
      await new Promise((r) => setTimeout(r, 400));
      await flushPromises();
      await w.find('[data-testid="name"]').setValue(name);
      const shortW = w.find('[data-testid="allow-short-w"]');
      if (shortW.exists()) await shortW.setValue(true);
      if (tick) await box.setValue(true);
      await create(w);
      expect(w.find('[data-testid="create-error"]').exists() ? w.find('[data-testid="create-error"]').text() : '').toBe('');
      expect((await fake.api.crawlSettings(name)).sitemaps).toBe(tick);
      unmountWorkbench();
    }
  });

  it('offers the TLS mode (record by default) and a CA file, sent with the request (issue 26)', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const createCrawl = fake.api.createCrawl;
    fake.api.createCrawl = (req) => (sent.push(req as Record<string, unknown>), createCrawl(req));
    const { w } = await openAt('/new');
    const mode = w.find('[data-testid="tls-mode"]');
    expect((mode.element as HTMLSelectElement).value).toBe('record');
    expect(mode.element.closest('label')!.getAttribute('title')).toMatch(/certificate/i);
    await w.find('[data-testid="real-seeds"]').setValue(true);
    await w.find('[data-testid="seeds"]').setValue('https://a.test/');
    await new Promise((r) => setTimeout(r, 400));
    await flushPromises();
    await w.find('[data-testid="name"]').setValue('tls-verify');
    const shortW = w.find('[data-testid="allow-short-w"]');
    if (shortW.exists()) await shortW.setValue(true);
    await mode.setValue('verify');
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const input = w.find('[data-testid="ca-file"]');
    Object.defineProperty(input.element, 'files', { value: [new File([pem], 'ca.pem')] });
    await input.trigger('change');
    await new Promise((r) => setTimeout(r, 50));
    await flushPromises();
    expect(w.find('[data-testid="ca-file-name"]').text()).toBe('ca.pem');
    await create(w);
    expect(sent.at(-1)).toMatchObject({ tls: 'verify', caPem: pem });
  });
});
