/**
 * JSON Lines, CSV and Parquet writers of one table, each fed chunks of rows and writing
 * through OutputFiles (a temporary name until the export completes).
 * - JSON Lines: one object per row; a timestamp as ISO 8601 text.
 * - CSV: RFC 4180 with a header row, by csv-stringify; nulls as empty fields, timestamps ISO.
 * - Parquet: typed columns (nullable), by hyparquet-writer, a row group per 100,000 rows.
 */
import { stringify } from 'csv-stringify/sync';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ExportFormat } from './options.js';
import type { OutputFiles } from './output-files.js';
import type { Column, Row, Value } from './tables.js';

export interface TableWriter {
  write(rows: Row[]): void | Promise<void>;
  finish(): void | Promise<void>;
}

export function tableWriter(format: Exclude<ExportFormat, 'warc'>, columns: readonly Column[], out: OutputFiles, file: number): TableWriter {
  if (format === 'jsonl') return new JsonLinesWriter(columns, out, file);
  if (format === 'csv') return new CsvWriter(columns, out, file);
  return new ParquetTableWriter(columns, out, file);
}

const iso = (v: Value) => (typeof v === 'number' ? new Date(v).toISOString() : null);

class JsonLinesWriter implements TableWriter {
  constructor(private readonly columns: readonly Column[], private readonly out: OutputFiles, private readonly file: number) {}
  write(rows: Row[]): void {
    let text = '';
    for (const row of rows) {
      const o: Record<string, Value> = {};
      this.columns.forEach((c, i) => (o[c.name] = c.type === 'timestamp' ? iso(row[i]!) : row[i]!));
      text += JSON.stringify(o) + '\n';
    }
    this.out.write(this.file, Buffer.from(text, 'utf8'));
  }
  finish(): void {}
}

class CsvWriter implements TableWriter {
  private readonly stamps: number[];
  constructor(private readonly columns: readonly Column[], private readonly out: OutputFiles, private readonly file: number) {
    this.stamps = columns.flatMap((c, i) => (c.type === 'timestamp' ? [i] : []));
    out.write(file, Buffer.from(stringify([columns.map((c) => c.name)], { record_delimiter: 'windows' }), 'utf8'));
  }
  write(rows: Row[]): void {
    if (this.stamps.length) for (const row of rows) for (const i of this.stamps) row[i] = iso(row[i]!);
    // RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break.
    this.out.write(this.file, Buffer.from(stringify(rows, { record_delimiter: 'windows', cast: { boolean: (b) => (b ? 'true' : 'false') } }), 'utf8'));
  }
  finish(): void {}
}

const PARQUET_TYPES = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  int: { type: 'INT64' },
  double: { type: 'DOUBLE' },
  timestamp: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' },
  boolean: { type: 'BOOLEAN' },
} as const;
const ROW_GROUP = 20_000;
const FLUSH_BYTES = 1 << 20;

class ParquetTableWriter implements TableWriter {
  private readonly writer: ParquetWriter;
  private buffered: Row[] = [];

  constructor(private readonly columns: readonly Column[], out: OutputFiles, file: number) {
    const bytes = fileWriter(out, file);
    const schema = [
      { name: 'root', num_children: columns.length },
      ...columns.map((c) => ({ name: c.name, ...PARQUET_TYPES[c.type], repetition_type: 'OPTIONAL' as const })),
    ];
    this.writer = new ParquetWriter({ writer: bytes, schema, createdBy: 'crawlbench (hyparquet-writer)' });
  }

  write(rows: Row[]): void {
    for (const r of rows) this.buffered.push(r);
    if (this.buffered.length >= ROW_GROUP) this.flush();
  }

  finish(): void {
    this.flush();
    if (this.writer.row_groups.length === 0) this.emptyRowGroup();
    this.writer.finish();
  }

  /**
   * hyparquet-writer 0.17 writes a file of no rows with an empty row-group list typed as
   * bytes, which arrow-rs (parquet-wasm, pyarrow's sibling) refuses; one row group of no
   * rows is read by every reader as an empty table.
   */
  private emptyRowGroup(): void {
    const offset = BigInt(this.writer.writer.offset);
    this.writer.row_groups.push({
      columns: this.columns.map((c) => ({
        file_offset: offset,
        meta_data: {
          type: PARQUET_TYPES[c.type].type, encodings: ['PLAIN'], path_in_schema: [c.name], codec: 'UNCOMPRESSED',
          num_values: 0n, total_uncompressed_size: 0n, total_compressed_size: 0n, data_page_offset: offset,
        },
      })),
      total_byte_size: 0n,
      num_rows: 0n,
    });
  }

  private flush(): void {
    if (this.buffered.length === 0) return;
    const rows = this.buffered;
    this.buffered = [];
    const columnData = this.columns.map((c, i) => ({
      name: c.name,
      data: rows.map((r) => parquetValue(c, r[i]!)),
    }));
    void this.writer.write({ columnData, rowGroupSize: rows.length });
  }
}

/** hyparquet-writer wants INT64 as bigint and timestamps as Date. */
function parquetValue(c: Column, v: Value): Value | bigint | Date {
  if (typeof v !== 'number') return v;
  if (c.type === 'timestamp') return new Date(v);
  if (c.type === 'int') return BigInt(v);
  return v;
}

/** A hyparquet ByteWriter that empties itself into an output file every megabyte. */
function fileWriter(out: OutputFiles, file: number): ByteWriter {
  const w = new ByteWriter();
  const flush = () => {
    if (w.index > 0) out.write(file, new Uint8Array(w.buffer, 0, w.index).slice());
    w.index = 0;
  };
  const grow = ByteWriter.prototype.ensure;
  w.ensure = function (size: number) {
    if (w.index > FLUSH_BYTES) flush();
    grow.call(w, size);
  };
  w.finish = flush;
  return w;
}
