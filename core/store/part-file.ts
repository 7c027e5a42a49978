/**
 * A parallel crawl's part database (NAME.parts/part-I.db) read as its worker writes it: opened
 * read-only beside the writer, its latest timeline sample (the worker commits about once a
 * second) and its exchange counts (exchange-store.ts). The workbench's live figures for a
 * parallel crawl come from here (cli/parallel-progress.ts).
 */
import { existsSync } from 'node:fs';
import { readExchangeCounts, type ExchangeCount } from './exchange-store.js';
import Sqlite from './sqlite.js';
import type { TimelineRow } from './timeline.js';

/** A worker's latest sample, as its timeline row holds it. */
export type PartSample = TimelineRow;

/**
 * The part's latest sample and its exchange counts; null while the file is not there or is
 * being created (its figures come with the next read).
 */
export function readPartFile(file: string): { sample: PartSample | null; counts: ExchangeCount[] } | null {
  if (!existsSync(file)) return null;
  let db: InstanceType<typeof Sqlite> | null = null;
  try {
    db = new Sqlite(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 200');
    const hasTimeline = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'timeline'").get();
    const sample = hasTimeline ? ((db.prepare('SELECT * FROM timeline ORDER BY t DESC LIMIT 1').get() as PartSample | undefined) ?? null) : null;
    return { sample, counts: readExchangeCounts(db) };
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
