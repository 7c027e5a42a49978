/**
 * New crawl's "parallel: K workers" (issue 25): the choice as the form holds it (text as typed),
 * the request's `parallel` it makes, its refusals checked with the engine's own schema
 * (api/parallel-request-schema.ts, which the CLI's --parts and --model and createParallelCrawl
 * use too), and the choice the Partition view's "crawl again in parallel" puts in the address.
 */
import type { LocationQuery, LocationQueryRaw } from 'vue-router';
import type { ParallelModel, ParallelOptions, ParallelPartitioner } from '../../core/api/contract.js';
import { ParallelOptionsSchema, PARALLEL_PARTITIONERS } from '../../core/api/parallel-request-schema.js';
import { formErrors } from '../lib/request-errors.js';

/** The assignments offered, in words: a hash of the hosts (sites model), of the URLs (pages model), or a partition. */
export type AssignChoice = 'host-hash' | 'url-hash' | 'partition';

export interface ParallelForm {
  on: boolean;
  /** K as typed. */
  workers: string;
  assign: AssignChoice;
  /** assign 'partition': whose vertices the partition gives out, the earlier crawl, the partitioner. */
  partitionModel: ParallelModel;
  partitionCrawl: string;
  partitioner: ParallelPartitioner;
  /** The earlier crawl whose graph predicts the exchange ('' none; a partition's crawl by default). */
  predictFrom: string;
}

export const blankParallelForm = (): ParallelForm => ({ on: false, workers: '4', assign: 'host-hash', partitionModel: 'site', partitionCrawl: '', partitioner: 'gpmetis', predictFrom: '' });

/** The request's `parallel`, as the form gives it (the schema says what is wrong with it). */
export function parallelOptionsOf(f: ParallelForm): Record<string, unknown> {
  const parts = f.workers.trim() === '' ? undefined : Number(f.workers.trim());
  const model = f.assign === 'host-hash' ? 'site' : f.assign === 'url-hash' ? 'page' : f.partitionModel;
  const out: Record<string, unknown> = { parts, model, assign: f.assign === 'partition' ? 'partition' : 'hash' };
  if (f.assign === 'partition') out.partition = { crawl: f.partitionCrawl, partitioner: f.partitioner };
  if (f.predictFrom) out.predictFrom = f.predictFrom;
  return out;
}

/** The form's refusals by field (parts, model, partition, predictFrom), in the engine's words. */
export const parallelFormErrors = (f: ParallelForm): Record<string, string> => formErrors(ParallelOptionsSchema, parallelOptionsOf(f), 'a parallel crawl');

/** What "crawl again in parallel with this assignment" puts in New crawl's address. */
export function parallelQuery(crawlId: string, parts: number, model: ParallelModel, partitioner: ParallelPartitioner): LocationQueryRaw {
  return { again: crawlId, parallel: String(parts), assign: 'partition', model, partitioner };
}

/** The form as an address fills it (#/new?again=ID&parallel=K&assign=partition&...); null when it does not ask for parallel. */
export function parallelFormOf(q: LocationQuery): ParallelForm | null {
  const one = (v: unknown) => (typeof v === 'string' ? v : '');
  if (!one(q.parallel)) return null;
  const f = { ...blankParallelForm(), on: true, workers: one(q.parallel) };
  if (one(q.assign) === 'partition' && one(q.again)) {
    const partitioner = PARALLEL_PARTITIONERS.find((p) => p === one(q.partitioner)) ?? 'gpmetis';
    Object.assign(f, { assign: 'partition', partitionCrawl: one(q.again), partitioner, partitionModel: one(q.model) === 'page' ? 'page' : 'site' });
  }
  return f;
}

/** A parallel crawl's assignment, in words (Live). */
export function assignmentWords(o: ParallelOptions): string {
  if (o.assign === 'hash') return o.model === 'site' ? 'sites by a hash of their hosts' : 'pages by a hash of their URLs';
  return `${o.model === 'site' ? 'sites' : 'pages'} by a ${o.partition?.partitioner ?? ''} partition of ${o.partition?.crawl ?? ''}'s graph`;
}
