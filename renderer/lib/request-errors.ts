/**
 * A form's request checked with the engine's own schema (core's request schemas, issue 24)
 * before it is sent: each refusal in the words the engine would answer with, capitalised as
 * userError shows an engine error, by field; and the first one as the error an engine refusal
 * would be (CRAWL_BAD_OPTION naming the field), for the views that show refusals in one note.
 */
import type { z } from 'zod';
import { fieldErrors } from '../../core/config/request-words.js';
import { SeedFileSizeSchema } from '../../core/api/limit-schemas.js';
import { sizeInWords } from '../../core/api/limits.js';
import { PageLinksSchema } from '../../core/api/page-request-schema.js';
import { SitesQuerySchema } from '../../core/api/sites-request-schema.js';
import { CompareRequestSchema } from '../../core/compare/request-schema.js';
import { ExportRequestSchema, exportInputOf } from '../../core/export/request-schema.js';
import { GraphExportRequestSchema, PartitionRequestSchema } from '../../core/graph/request-schema.js';
import { EvaluationRequestSchema } from '../../core/ranking/request-schema.js';
import { simulationRequestSchema } from '../../core/simulator/request-schema.js';

export function formErrors<S extends z.ZodType>(schema: S, value: unknown, what: string): Record<string, string> {
  const errors = fieldErrors(schema, value, what);
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.charAt(0).toUpperCase() + v.slice(1)]));
}

/** The first refusal as the engine's error would be, or null when the request passes. */
export function formRefusal<S extends z.ZodType>(schema: S, value: unknown, what: string): { name: string; code: string; field: string; message: string } | null {
  const first = Object.entries(fieldErrors(schema, value, what))[0];
  return first ? { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: first[0], message: `${first[0]}: ${first[1]}` } : null;
}

/** The Simulate form's request, by field (policies: the simulator's, as listSimulationSources gives them). */
export const simulationFormErrors = (req: unknown, policies: readonly string[]) => formErrors(simulationRequestSchema(policies), req, 'a simulation request');
/** The Results view's evaluation (the measure, its hot threshold, IS's query...), by field. */
export const evaluationFormErrors = (req: unknown) => formErrors(EvaluationRequestSchema, req, 'an evaluation');
/** The Partition form's choice (models, K, runs). */
export const partitionFormErrors = (choice: unknown) => formErrors(PartitionRequestSchema, choice, 'a partition request');
export const partitionRefusal = (choice: unknown) => formRefusal(PartitionRequestSchema, choice, 'a partition request');
export const graphExportRefusal = (req: unknown) => formRefusal(GraphExportRequestSchema, req, 'a graph export request');
/** The Compare view's options (top, host). */
export const compareFormErrors = (opts: unknown) => formErrors(CompareRequestSchema, opts, 'a comparison');
export const compareRefusal = (opts: unknown) => formRefusal(CompareRequestSchema, opts, 'a comparison');
/** The Export dialog's request (format, table, filters), before the host chooses where it goes. */
export const exportFormErrors = (req: Record<string, unknown>) => formErrors(ExportRequestSchema, exportInputOf(req), 'an export');
export const exportRefusal = (req: Record<string, unknown>) => formRefusal(ExportRequestSchema, exportInputOf(req), 'an export');
/** Which links of a page the Pages view's inspector asks for (linkLimit, and the offsets from its route). */
export const pageLinksRefusal = (links: unknown) => formRefusal(PageLinksSchema, links, 'the links of a page');
/** The Sites view's question (its filter form's host, state and errors-only, its sort and page). */
export const sitesQueryRefusal = (query: unknown) => formRefusal(SitesQuerySchema, query ?? {}, 'a sites query');
/** Why a seed file chosen in New crawl is not read (over the limit of a seed file, by the engine's schema), or null. */
export function seedFileProblem(name: string, bytes: number): string | null {
  const size = SeedFileSizeSchema.safeParse(bytes);
  return size.success ? null : `${name} is ${sizeInWords(bytes)}: ${size.error.issues[0]!.message}.`;
}
