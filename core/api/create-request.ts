/**
 * The New crawl request and a resume's settings, checked at the API's edge with their schemas
 * (create-request-schema.ts, the ones the New crawl form checks with). The engine's side adds
 * one check a browser cannot make: each block of a CA file parsed as an X.509 certificate.
 * Errors carry the field, so the form can show them where they belong.
 */
import { pemCertificates } from '../config/pem.js';
import type { CreateCrawlRequest } from './contract.js';
import { CA_PEM_PROBLEM, CaPemSchema, CreateCrawlRequestSchema, ResumeRequestSchema } from './create-request-schema.js';
import { checkRequest } from './request-check.js';

export { CreateCrawlRequestSchema, ResumeRequestSchema } from './create-request-schema.js';

/** The create request as the engine checks it: the same schema, every certificate parsed. */
const EngineCreateSchema = CreateCrawlRequestSchema.extend({ caPem: CaPemSchema.refine((pem) => pemCertificates(pem).length > 0, CA_PEM_PROBLEM).optional() });

/** The request checked (api/request-check.ts): a refusal names its field, in the form's words. */
export function parseCreateRequest(req: unknown): CreateCrawlRequest {
  return checkRequest(EngineCreateSchema, req ?? {}, 'a new crawl') as CreateCrawlRequest;
}

/** A start's or resume's settings checked: only the page limit, within its range. */
export function parseResumeRequest(overrides: unknown): { maxPages?: number | null } {
  return checkRequest(ResumeRequestSchema, overrides ?? {}, 'a resume');
}
