/**
 * Seed files too large for one message (issue 23: a 10 MB file sent in one WebSocket message
 * took `crawlbench serve` down): the workbench sends them in chunks, appended here in order,
 * then names the upload to parseSeeds and createCrawl. Held in memory, within limits.ts: at most
 * API_LIMITS.seedUploadChars in all (a new upload drops the oldest ones to make room), at most
 * seedUploadsHeld uploads, each dropped when unused for seedUploadIdleMs.
 */
import type { z } from 'zod';
import { badField } from '../errors.js';
import type { SeedUploadDto } from './contract.js';
import { SeedChunkSchema, SeedFileSizeSchema, SeedPartSchema, SeedSourceSchema, SeedUploadIdSchema } from './limit-schemas.js';
import { API_LIMITS, grouped } from './limits.js';

interface Upload {
  chunks: string[];
  chars: number;
  parts: number;
  touched: number;
}

function checked<T>(schema: z.ZodType<T>, value: unknown, field: string, problem: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw badField(field, problem);
  return r.data;
}

export class SeedUploads {
  /** In the order they were started (the oldest first). */
  private readonly held = new Map<string, Upload>();

  constructor(private readonly now: () => number = Date.now) {}

  /** What parseSeeds reads: seed text sent in one piece (within the limit), or the text of an upload. */
  source(source: unknown): string {
    if (source === undefined || source === null) return '';
    const read = SeedSourceSchema.safeParse(source);
    if (read.success) return typeof read.data === 'string' ? read.data : this.text(read.data.uploadId);
    if (typeof source === 'string') {
      throw badField('text', `must be at most ${grouped(API_LIMITS.seedTextChars)} characters (this one has ${grouped(source.length)}): send longer text with uploadSeeds`);
    }
    throw badField('text', 'must be the seed text, or { uploadId } of a seed upload');
  }

  /** Appends part `part` of upload `uploadId`; part 0 starts it (again). */
  append(uploadId: unknown, chunk: unknown, part: unknown): SeedUploadDto {
    const id = checked(SeedUploadIdSchema, uploadId, 'uploadId', 'must be 1 to 64 letters, digits, _ or -');
    const n = checked(SeedPartSchema, part, 'part', 'must be a whole number from 0 (the first chunk) on');
    if (typeof chunk !== 'string') throw badField('chunk', 'must be text');
    const text = checked(SeedChunkSchema, chunk, 'chunk', `must be at most ${grouped(API_LIMITS.seedChunkChars)} characters (this one has ${grouped(chunk.length)}): send the file in smaller chunks`);
    this.expire();
    let upload = this.held.get(id);
    if (n === 0) {
      this.held.delete(id);
      upload = { chunks: [], chars: 0, parts: 0, touched: this.now() };
      this.held.set(id, upload);
    } else if (!upload) {
      throw badField('uploadId', `no seed upload "${id}" under way (unused uploads are dropped after ${API_LIMITS.seedUploadIdleMs / 60_000} minutes): import the file again`);
    } else if (n !== upload.parts) {
      throw badField('part', `upload "${id}" expects part ${upload.parts} next, not ${n}`);
    }
    // The file's size, in the words the form and `crawlbench crawl --seeds` use (the upload is dropped).
    const size = SeedFileSizeSchema.safeParse(upload.chars + text.length);
    if (!size.success) {
      this.held.delete(id);
      throw badField('seedText', size.error.issues[0]!.message);
    }
    // Room for it: the oldest other uploads go first.
    for (const [other] of this.held) {
      if (this.total() + text.length <= API_LIMITS.seedUploadChars && this.held.size <= API_LIMITS.seedUploadsHeld) break;
      if (other !== id) this.held.delete(other);
    }
    upload.chunks.push(text);
    upload.chars += text.length;
    upload.parts++;
    upload.touched = this.now();
    return { uploadId: id, parts: upload.parts, chars: upload.chars };
  }

  /** The whole text of an upload. */
  text(uploadId: unknown, field = 'uploadId'): string {
    const id = checked(SeedUploadIdSchema, uploadId, field, 'must be 1 to 64 letters, digits, _ or -');
    this.expire();
    const upload = this.held.get(id);
    if (!upload) throw badField(field, `no seed upload "${id}" (unused uploads are dropped after ${API_LIMITS.seedUploadIdleMs / 60_000} minutes): import the file again`);
    upload.touched = this.now();
    if (upload.chunks.length > 1) upload.chunks = [upload.chunks.join('')];
    return upload.chunks[0] ?? '';
  }

  drop(uploadId: string): void {
    this.held.delete(uploadId);
  }

  /** Characters held over every upload. */
  total(): number {
    let n = 0;
    for (const u of this.held.values()) n += u.chars;
    return n;
  }

  private expire(): void {
    const before = this.now() - API_LIMITS.seedUploadIdleMs;
    for (const [id, u] of this.held) if (u.touched < before) this.held.delete(id);
  }
}
