import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import type { Policy } from '../scheduler/policy.js';
import { BacklinkCount } from './backlink-count.js';
import { BatchPageRank } from './batch-pagerank.js';
import { BreadthFirst } from './breadth-first.js';
import type { PolicyContext } from './context.js';
import { CrawlAbility } from './crawl-ability.js';
import { HistoricalPageRank, type NewPageRule } from './historical-pagerank.js';
import { HistoricalPartialPageRank } from './historical-partial-pagerank.js';
import { loadHistory } from './history.js';
import { LargerSitesFirst } from './larger-sites-first.js';
import { Omniscient } from './omniscient.js';
import { Opic } from './opic.js';
import { batchSize, checkParams, choiceParam, numberParam, stringParam } from './params.js';
import { PartialPageRank } from './partial-pagerank.js';
import { Performance } from './performance.js';
import { Quality, qualitySource } from './quality.js';
import { serverModel } from './server-rank.js';
import { HOT_RADIUS, Topic } from './topic.js';
import { TOPIC_ORDERS, type TopicOrder } from './topic-orders.js';

export type { PolicyContext } from './context.js';

/**
 * The one registry of ordering policies. The crawler and the simulator both build their
 * policy here, so that no policy is ever implemented twice. `params` lists the
 * settings.policyParams keys a policy takes (params.ts says what each means).
 */
export interface PolicyInfo {
  name: string;
  summary: string;
  params: readonly string[];
  /** Needs the simulator's oracle (the true PageRank): `crawlbench simulate` only. */
  simulatorOnly?: boolean;
  create(params: Record<string, unknown>, ctx: PolicyContext): Policy;
}

const SERVER = ['alpha', 'p', 'requestsPerConnection'] as const;

function historical(rule: NewPageRule, summary: string): PolicyInfo {
  return {
    name: `historical-pagerank-${rule}`,
    summary,
    params: rule === 'random' ? ['history', 'seed'] : ['history'],
    simulatorOnly: rule === 'omniscient',
    create: (params, ctx) => {
      const history = needHistory(`historical-pagerank-${rule}`, params, ctx);
      const oracle = rule === 'omniscient' ? needOracle(`historical-pagerank-${rule}`, ctx) : undefined;
      return new HistoricalPageRank(history, rule, numberParam(params, 'seed', 1, 0, 2 ** 32 - 1, true), oracle);
    },
  };
}

const POLICIES: PolicyInfo[] = [
  { name: 'breadth-first', summary: 'FIFO at both levels: pages in discovery order, politeness permitting', params: [], create: () => new BreadthFirst() },
  { name: 'backlink-count', summary: 'most in-links from the pages fetched so far first', params: [], create: () => new BacklinkCount() },
  {
    name: 'batch-pagerank',
    summary: 'every K pages, PageRank of the graph seen so far; pages by it until the next computation',
    params: ['batch'],
    create: (params, ctx) => {
      const { k, scheduled } = batchSize(params, ctx);
      return new BatchPageRank(k, scheduled);
    },
  },
  {
    name: 'partial-pagerank',
    summary: 'batch-pagerank; in between, a new page gets the sum of PR(parent)/outdegree(parent)',
    params: ['batch'],
    create: (params, ctx) => {
      const { k, scheduled } = batchSize(params, ctx);
      return new PartialPageRank(k, scheduled);
    },
  },
  { name: 'opic', summary: 'OPIC: fetched pages split their cash among their links; most cash first', params: [], create: () => new Opic() },
  { name: 'larger-sites-first', summary: 'the site with the most pending pages first', params: [], create: () => new LargerSitesFirst() },
  historical('zero', 'old PageRank of the history crawl first; new pages get 0'),
  historical('random', 'old PageRank of the history crawl first; new pages get a random old value'),
  historical('parent', 'old PageRank of the history crawl first; new pages get PR(parent)/outdegree(parent)'),
  {
    name: 'historical-partial-pagerank',
    summary: "the largest of old PageRank, PageRank of the graph seen (every K pages) and the parents' shares, each in units of the mean page",
    params: ['history', 'batch'],
    create: (params, ctx) => {
      const { k, scheduled } = batchSize(params, ctx);
      return new HistoricalPartialPageRank(needHistory('historical-partial-pagerank', params, ctx), k, scheduled);
    },
  },
  historical('omniscient', 'old PageRank of the history crawl first; new pages get their true PageRank (simulator only)'),
  {
    name: 'omniscient',
    summary: 'every page by its true final PageRank (simulator only: an upper reference)',
    params: [],
    simulatorOnly: true,
    create: (_params, ctx) => new Omniscient(needOracle('omniscient', ctx)),
  },
  {
    name: 'performance',
    summary: 'servers by pages per connection over connection time, P/T; URLs FIFO',
    params: SERVER,
    create: (params) => new Performance(serverModel(params)),
  },
  {
    name: 'quality',
    summary: 'URLs by quality (old PageRank from a history crawl, else OPIC cash); servers by their best URL',
    params: ['alpha', 'requestsPerConnection', 'history', 'newPages', 'seed'],
    create: (params, ctx) => new Quality(qualitySource(params, ctx), serverModel(params)),
  },
  {
    name: 'crawl-ability',
    summary: 'servers by quality of their next P URLs per unit of connection time, C = Q/T',
    params: [...SERVER, 'history', 'newPages', 'seed'],
    create: (params, ctx) => new CrawlAbility(qualitySource(params, ctx), serverModel(params)),
  },
  {
    name: 'topic',
    summary: 'pages whose URL or anchor holds the topic word, and those 3 links around them, first',
    params: ['topic', 'topicOrder', 'topicRadius', 'batch'],
    create: (params, ctx) => {
      const word = stringParam(params, 'topic');
      if (word === undefined) throw new CrawlError(ErrorCodes.BAD_OPTION, '--topic: required by policy topic (the topic word)', { field: 'policyParams.topic' });
      const order = choiceParam(params, 'topicOrder', TOPIC_ORDERS, 'breadth-first');
      const radius = numberParam(params, 'topicRadius', HOT_RADIUS, 0, 100, true);
      return new Topic(word.trim(), topicOrdering(order, params, ctx), radius);
    },
  },
];

/** The history a historical policy is guided by: --history, read by the context's loader. */
function needHistory(name: string, params: Record<string, unknown>, ctx: PolicyContext): ReadonlyMap<string, number> {
  const path = stringParam(params, 'history');
  if (path === undefined) throw new CrawlError(ErrorCodes.BAD_OPTION, `--history: required by policy ${name} (an earlier crawl's database)`, { field: 'policyParams.history' });
  return loadHistory(path, ctx);
}

function topicOrdering(order: TopicOrder, params: Record<string, unknown>, ctx: PolicyContext): Policy | null {
  if (order === 'backlink-count') return new BacklinkCount();
  if (order === 'batch-pagerank') {
    const { k, scheduled } = batchSize(params, ctx);
    return new BatchPageRank(k, scheduled);
  }
  return null;
}

function needOracle(name: string, ctx: PolicyContext): ReadonlyMap<string, number> {
  if (!ctx.oracle) throw badOption('--policy', `${name} needs the true PageRank of the whole web: it runs only in the simulator (crawlbench simulate)`);
  return ctx.oracle;
}

/** The crawl policies; with `simulator`, also the simulator-only references (omniscient ones). */
export function listPolicies(opts: { simulator?: boolean } = {}): readonly PolicyInfo[] {
  return opts.simulator ? POLICIES : POLICIES.filter((p) => !p.simulatorOnly);
}

export function createPolicy(name: string, params: Record<string, unknown> = {}, ctx: PolicyContext = {}): Policy {
  const info = POLICIES.find((p) => p.name === name);
  if (!info) {
    throw new CrawlError(
      ErrorCodes.BAD_OPTION,
      `--policy: unknown policy "${name}" (available: ${POLICIES.map((p) => p.name).join(', ')})`,
    );
  }
  checkParams(name, info.params, params);
  return info.create(params, ctx);
}
