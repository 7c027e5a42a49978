/**
 * WARC files of one export: PREFIX-YYYYMMDDhhmmss-NNNNN.warc.gz (the crawl's start time and a
 * serial number from 00000), each opening with its warcinfo record, a new one begun before a
 * fetch's records would take the current file past the size limit. A fetch's response (or
 * revisit) and request always share a file.
 */
import { join } from 'node:path';
import type { OutputFiles } from './output-files.js';
import type { RecordIds } from './record-ids.js';
import { warcinfoRecord } from './warc-records.js';

export class WarcFiles {
  private current = -1;
  private serial = 0;
  private recordsInCurrent = 0;
  readonly names: string[] = [];
  /** Final paths with the temporary index of each (for the CDXJ indexer, which reads them before the rename). */
  readonly files: Array<{ name: string; index: number }> = [];

  constructor(
    private readonly out: OutputFiles,
    private readonly dir: string,
    private readonly prefix: string,
    readonly stamp: string,
    private readonly maxFileSize: number,
    private readonly ids: RecordIds,
    private readonly info: Record<string, string>,
  ) {}

  /** Writes one fetch's records (already gzipped), beginning a new file first if they would not fit. */
  async add(records: Buffer[]): Promise<void> {
    const size = records.reduce((n, r) => n + r.length, 0);
    if (this.current < 0 || (this.recordsInCurrent > 0 && this.out.size(this.current) + size > this.maxFileSize)) await this.next();
    for (const r of records) this.out.write(this.current, r);
    this.recordsInCurrent++;
  }

  /** Makes sure there is at least one file (an export with nothing to write is one warcinfo record). */
  async finish(): Promise<void> {
    if (this.current < 0) await this.next();
    this.out.close(this.current);
  }

  private async next(): Promise<void> {
    if (this.current >= 0) this.out.close(this.current);
    const name = `${this.prefix}-${this.stamp}-${String(this.serial++).padStart(5, '0')}.warc.gz`;
    this.current = this.out.open(join(this.dir, name));
    this.names.push(name);
    this.files.push({ name, index: this.current });
    this.recordsInCurrent = 0;
    const info = await warcinfoRecord({ id: this.ids.id('warcinfo', name, 'warcinfo'), date: new Date().toISOString(), filename: name, info: this.info });
    this.out.write(this.current, info);
  }
}

/** `2026-01-02T03:04:05.678Z` -> `20260102030405`. */
export function fileStamp(iso: string | undefined): string {
  const d = iso ? new Date(iso) : new Date();
  return (Number.isNaN(d.getTime()) ? new Date() : d).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
