/**
 * A numeric setting as a zod schema within its sane range (limits.ts), refused with one message
 * in words: the one definition the crawl settings, the create request and the other requests'
 * schemas (api/requests/) use. Browser-safe: imports zod and limits.ts only.
 */
import { z } from 'zod';
import { limitProblem, SETTING_LIMITS, type LimitedSetting } from './limits.js';

/** A number within the setting's sane range (limits.ts), refused with one message in words otherwise. */
export function limited(name: LimitedSetting): z.ZodNumber {
  const limit = SETTING_LIMITS[name];
  const problem = limitProblem(limit);
  const n = z.number({ error: problem }).min(limit.min, problem).max(limit.max, problem);
  return limit.integer ? n.int(problem) : n;
}
