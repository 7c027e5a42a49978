/** New crawl's policy texts come from the engine: in words, with a tooltip per parameter, never a CLI flag. */
import { describe, expect, it } from 'vitest';
import { describePolicies } from '../../core/api/policies.js';
import { listPolicies } from '../../core/policies/registry.js';

describe('policy descriptions for the workbench', () => {
  it('names no command-line flag, and every parameter has a label and an explanation', () => {
    // The simulator's list (Simulate shows it) has the simulator-only policies too.
    for (const p of listPolicies({ simulator: true })) expect(p.summary, p.name).not.toMatch(/--[a-z]/);
    const policies = describePolicies();
    expect(policies.length).toBeGreaterThan(10);
    for (const p of policies) {
      expect(p.summary, p.name).not.toMatch(/--[a-z]/);
      for (const param of p.params) {
        expect(param.label, `${p.name}.${param.name}`).toBeTruthy();
        expect(param.summary, `${p.name}.${param.name}`).toBeTruthy();
        expect(`${param.label} ${param.summary}`, `${p.name}.${param.name}`).not.toMatch(/--[a-z]/);
      }
    }
  });
});
