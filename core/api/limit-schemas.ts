/**
 * The limits of one request (limits.ts) as zod schemas: what the engine checks a seed upload, a
 * seed text and a call message against. Kept apart from limits.ts so that Electron's preload,
 * which needs the numbers, does not bundle zod; the New crawl form checks a seed file with the
 * same schema (browser-safe: zod and limits.ts only).
 */
import { z } from 'zod';
import { API_LIMITS, sizeInWords } from './limits.js';

/** An upload's id, chosen by the client (a random word): letters, digits, _ and -. */
export const SeedUploadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -');
/** Seed text in one piece. */
export const SeedTextSchema = z.string().max(API_LIMITS.seedTextChars);
/** One chunk of a seed upload. */
export const SeedChunkSchema = z.string().max(API_LIMITS.seedChunkChars);
/** Why a seed file is refused for its size: the same words from the CLI (--seeds), the API (uploadSeeds) and the form. */
export const SEED_FILE_PROBLEM = `a seed file can be at most ${sizeInWords(API_LIMITS.seedUploadChars)}; split it, or keep the hosts or domain suffixes (.cl) of its URLs`;
/**
 * A seed file's size: its bytes (a file chosen in the form, a --seeds file) or the characters of
 * its upload so far (a UTF-8 file has no more characters than bytes), at most seedUploadChars.
 */
export const SeedFileSizeSchema = z.number().max(API_LIMITS.seedUploadChars, SEED_FILE_PROBLEM);
/** The part number of a chunk: 0 starts (or starts again) an upload, then 1, 2, ... in order. */
export const SeedPartSchema = z.number().int().min(0).max(1_000_000);
/** What parseSeeds reads: the text itself, or an upload. */
export const SeedSourceSchema = z.union([SeedTextSchema, z.object({ uploadId: SeedUploadIdSchema }).strict()]);

/**
 * A call message as a server takes it (its id is only sent back; the arguments' contents are
 * each method's to check). rpc-server.ts checks the same by hand: it is browser-safe, zod is not.
 */
export const CallMessageSchema = z.object({
  kind: z.literal('call'),
  name: z.string().max(API_LIMITS.methodChars),
  data: z.array(z.unknown()).max(API_LIMITS.callArgs).optional(),
});
