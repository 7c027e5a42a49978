/**
 * `npm run results` rewrites docs/results.md's generated blocks from a reproduce run and keeps
 * what was written around them; a step with no block yet is added before the section's end.
 */
import { describe, expect, it } from 'vitest';
import type { ReproduceSummary, StepResult } from '../../core/reproduce/output.js';
import { begin, END, regenerate, SECTION_END } from '../../core/reproduce/results-doc.js';

const step = (paper: StepResult['paper'], name: string, value: string): ReproduceSummary['steps'][number] => ({
  paper, step: name, seconds: 2, cpuSeconds: 3, dir: '.', graph: 'g', settings: [{ name: 'w', value, paper: '15 s', differs: value !== '15 s' }],
  items: [{ kind: 'table', id: `${paper}-t`, title: 'T', cite: 'C', columns: ['a'], rows: [[value]], commands: ['crawlbench simulate --graph GRAPH'], notes: [] }],
});
const summary = (value: string): ReproduceSummary => ({
  scale: 'default', date: '2026-11-27T00:00:00.000Z', papers: ['castillo', 'cho'], seconds: 60, cpuSeconds: 90, load: { min: 1, max: 2.5 },
  steps: [step('castillo', 'table-4.1', value), step('cho', 'graph-3', value)],
});

describe('docs/results.md regenerated from a reproduce run', () => {
  const doc = ['# Results', '', begin('run'), 'old run', END, '', begin('castillo/table-4.1'), 'old numbers', END, '', 'Against the thesis: written by hand.', '', SECTION_END, '', '## Further'].join('\n');

  it('rewrites every block in place, keeps the text around them, and adds a missing step before the end of the section', () => {
    const { doc: once, added } = regenerate(doc, summary('15 s'), 'reproduce');
    expect(added).toEqual(['cho/graph-3']);
    expect(once).not.toContain('old numbers');
    expect(once).toContain('Against the thesis: written by hand.');
    expect(once).toContain('60.0 s in all and 90.0 s of CPU');
    expect(once).toContain('load average 1.0-2.5');
    expect(once).toContain('[CSV](reproduce/castillo-t.csv)');
    expect(once.indexOf(begin('cho/graph-3'))).toBeLessThan(once.indexOf(SECTION_END));
    // Again with other numbers: the same blocks, replaced, none added, the hand-written text once.
    const { doc: twice, added: none } = regenerate(once, summary('5 s'), 'reproduce');
    expect(none).toEqual([]);
    expect(twice.split(begin('castillo/table-4.1'))).toHaveLength(2);
    expect(twice).toContain('| w | 5 s | 15 s | **yes** |');
    expect(twice).not.toContain('| w | 15 s | 15 s | no |');
    expect(twice.split('Against the thesis: written by hand.')).toHaveLength(2);
  });

  it('refuses a block without its end marker rather than eat the rest of the document', () => {
    expect(() => regenerate(`${begin('castillo/table-4.1')}\nno end\n${SECTION_END}`, summary('15 s'), 'reproduce')).toThrow('has no closing');
  });
});
