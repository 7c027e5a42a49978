/**
 * vitest's global setup: one empty folder for the shared demo crawl of the e2e files
 * (test/ui/e2e-kit.ts builds it there when the first file asks, so a run of unit tests alone
 * costs nothing), removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'cb-e2e-fixture-'));
  project.provide('e2eFixtureDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
