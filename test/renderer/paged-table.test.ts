// @vitest-environment happy-dom
/**
 * PagedTable shows the one page it is given and asks its owner for the rest: a sortable
 * header asks for that sort (largest first for numbers, the other way on a second click),
 * the pager asks for the next or previous offset and says which rows are shown of how many.
 */
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import PagedTable from '../../renderer/components/PagedTable.vue';

interface Row {
  host: string;
  pages: number;
}
const columns = [
  { key: 'host', label: 'Site', value: (r: unknown) => (r as Row).host, sortable: true, tooltip: 'its host' },
  { key: 'pages', label: 'Pages', value: (r: unknown) => (r as Row).pages, numeric: true, sortable: true },
  { key: 'note', label: 'Note', value: () => null },
];
const rows: Row[] = [
  { host: 'a.test', pages: 3 },
  { host: 'b.test', pages: 2 },
];

function table(props: Record<string, unknown> = {}) {
  return mount(PagedTable, {
    props: { name: 't', caption: 'Sites', columns, rows, total: 7, offset: 2, limit: 2, sort: 'pages', descending: true, fileName: 'sites', ...props },
  });
}

describe('PagedTable', () => {
  it('shows its rows, the range of them and the sort', () => {
    const w = table();
    expect(w.findAll('tbody tr').map((r) => r.findAll('td').map((d) => d.text()))).toEqual([
      ['a.test', '3', '–'],
      ['b.test', '2', '–'],
    ]);
    expect(w.find('[data-range]').text()).toBe('rows 3–4 of 7');
    const ths = w.findAll('th');
    expect(ths.map((t) => t.attributes('scope'))).toEqual(['col', 'col', 'col']);
    expect(ths.map((t) => t.attributes('aria-sort'))).toEqual(['none', 'descending', undefined]);
    expect(ths[0]!.attributes('title')).toBe('its host');
    // A column the engine cannot sort by has no button.
    expect(ths[2]!.find('button').exists()).toBe(false);
  });

  it('asks for a sort: a new numeric column largest first, text A to Z, the same column flipped', async () => {
    const w = table({ sort: 'host', descending: false });
    await w.findAll('th button')[1]!.trigger('click');
    await w.findAll('th button')[0]!.trigger('click');
    expect(w.emitted('sort')).toEqual([
      ['pages', true],
      ['host', true],
    ]);
  });

  it('asks for the previous and next page, and has none past either end', async () => {
    const w = table();
    await w.find('[data-page="next"]').trigger('click');
    await w.find('[data-page="previous"]').trigger('click');
    expect(w.emitted('page')).toEqual([[4], [0]]);
    const end = table({ offset: 6, rows: [rows[0]] });
    expect(end.find('[data-range]').text()).toBe('rows 7–7 of 7');
    expect(end.find('[data-page="next"]').attributes('disabled')).toBeDefined();
    const start = table({ offset: 0 });
    expect(start.find('[data-page="previous"]').attributes('disabled')).toBeDefined();
    const none = table({ offset: 0, rows: [], total: 0, empty: 'no site matches' });
    expect(none.find('[data-range]').text()).toBe('no rows of 0');
    expect(none.find('tbody').text()).toBe('no site matches');
  });
});
