import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAfter } from '../references.js';

/** A fresh temporary folder, removed after the test file. */
export function tmpDir(prefix = 'crawlbench-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  closeAfter(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
