/**
 * The engine's side of a request schema (api/requests/): a request checked before the engine
 * sees it, a refusal thrown as a CrawlError (CRAWL_BAD_OPTION) naming the field, with the same
 * words the form shows at it and the CLI prints after the field's flag.
 */
import type { z } from 'zod';
import { badField } from '../errors.js';
import { checkWith } from '../config/request-words.js';

/** The request as the schema gives it (defaults filled in), or the first refusal thrown. */
export function checkRequest<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const checked = checkWith(schema, value, what);
  if (checked.ok) return checked.value;
  const first = checked.refusals[0]!;
  throw badField(first.field, first.problem);
}
