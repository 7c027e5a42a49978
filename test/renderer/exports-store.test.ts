// @vitest-environment happy-dom
/**
 * The Export dialog's store against the fake API (which checks requests with the engine's own
 * parser): a refused request keeps its error at the field, progress events move the job, a
 * cancel ends it, and the dialog shows each.
 */
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import ExportDialog from '../../renderer/components/ExportDialog.vue';
import { useExportsStore } from '../../renderer/stores/exports.js';
import { crawlInfo, fakeApi } from './fake-api.js';

let fake: ReturnType<typeof fakeApi>;
const settle = () => new Promise((r) => setTimeout(r, 0));
beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('c1', crawlInfo('c1', { status: 'finished' }));
  provideApi(fake.api);
  setActivePinia(createPinia());
});

describe('exports store', () => {
  it('starts an export, follows its progress and its end', async () => {
    const store = useExportsStore();
    const off = store.subscribe();
    const id = await store.start('c1', { format: 'csv', what: 'sites' });
    expect(id).toBe('c1-export-1');
    expect(store.ofCrawl('c1')[0]).toMatchObject({ state: 'running', format: 'csv', what: 'sites' });
    fake.emitExport({ ...fake.exports.get(id!)!, done: 50, total: 100, bytesWritten: 2048, etaSeconds: 3 });
    expect(store.jobs[id!]).toMatchObject({ done: 50, etaSeconds: 3 });
    await store.cancel(id!);
    expect(store.jobs[id!]!.state).toBe('cancelled');
    off();
  });

  it('keeps a refused request\'s error at its field', async () => {
    const store = useExportsStore();
    expect(await store.start('c1', { format: 'csv', statuses: ['ok'] })).toBeNull();
    expect(store.errorOf('start:c1')).toMatchObject({ field: 'filters.statuses', code: 'CRAWL_BAD_OPTION' });
  });
});

describe('Export dialog', () => {
  it('shows the progress bar with rows, bytes and time left, Cancel, then the files to download', async () => {
    const w = mount(ExportDialog, { props: { crawlId: 'c1' } });
    await settle();
    await w.get('[data-testid=export-format]').setValue('parquet');
    await w.get('form').trigger('submit');
    await settle();
    expect(fake.calls).toContain('startExport c1 parquet');
    const id = 'c1-export-1';
    fake.emitExport({ ...fake.exports.get(id)!, done: 250, total: 1000, bytesWritten: 3 * 1024 * 1024, etaSeconds: 12 });
    await settle();
    expect(w.get('[data-testid=export-progress]').attributes('value')).toBe('25');
    expect(w.get('[data-testid=export-progress-text]').text()).toBe('250 of 1,000 pages · 3.0 MB written · about 12 s left');
    expect(w.find('[data-testid=export-cancel]').exists()).toBe(true);
    fake.emitExport({ ...fake.exports.get(id)!, state: 'finished', done: 1000, files: [{ name: 'c1-pages.parquet', bytes: 4096, path: '/w/exports/x/c1-pages.parquet', href: '/exports/x/c1-pages.parquet' }], warnings: ['no PageRank was computed'] });
    await settle();
    expect(w.get('[data-testid=export-done]').text()).toMatch(/Export finished: 1 file/);
    expect(w.get('[data-testid=export-files] a').attributes('href')).toBe('/exports/x/c1-pages.parquet');
    expect(w.get('[data-testid=export-warnings]').text()).toContain('no PageRank');
  });
});
