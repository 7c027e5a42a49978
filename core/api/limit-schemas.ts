/**
 * The limits of one request (limits.ts) as zod schemas: what the engine checks a seed upload, a
 * seed text and a call message against. Kept apart from limits.ts only so that the workbench,
 * which needs the numbers, does not bundle zod.
 */
import { z } from 'zod';
import { API_LIMITS } from './limits.js';

/** An upload's id, chosen by the client (a random word): letters, digits, _ and -. */
export const SeedUploadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -');
/** Seed text in one piece. */
export const SeedTextSchema = z.string().max(API_LIMITS.seedTextChars);
/** One chunk of a seed upload. */
export const SeedChunkSchema = z.string().max(API_LIMITS.seedChunkChars);
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
