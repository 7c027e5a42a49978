/**
 * Türk's tables measured on a running crawler (docs/design.md section 6; the thesis predicts
 * them from a graph): the parallel crawler, `crawlbench crawl --parts K` with K workers over NATS
 * JetStream, on a generated test web, for the four assignments bench/parallel runs (a host hash,
 * a URL hash, gpmetis's site partition and Zoltan PHG's page-hypergraph partition of an earlier
 * crawl), each with --predict-from that earlier crawl: the coordinator prints what the workers
 * sent (messages and URL bytes) beside partition-eval's prediction on the earlier crawl's graph.
 * The thesis's own messages and volume per page for the same model (its Tables 6.4 and 6.5)
 * stand beside them.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { exportGraph } from '../graph/export-graph.js';
import { loadLinkGraph } from '../graph/link-graph.js';
import { findGpmetis, findZoltan, runGpmetis, runZoltan } from '../graph/tools.js';
import { runCrawl, startTestWeb } from './cao-crawls.js';
import type { StepContext } from './context.js';
import type { Cell, StepResult, Table } from './output.js';
import { TURK_DATASET, TURK_PAGE, TURK_SITE } from './paper-numbers.js';
import { makeFolders } from '../folders.js';

const WEB_SEED = 25;
/** bench/parallel's crawl settings: no politeness wait on loopback, keep-alive, 16 connections a worker. */
const CRAWL = ['--w', '0', '--c', '100', '--r', '16', '--max-crawl-delay', '0', '--robots-retry', '1s', '--retry-base', '200ms'];

interface Assignment {
  name: string;
  model: 'site' | 'page';
  /** The part vector for K, or null for the hash. */
  vector: ((k: number) => Promise<string>) | null;
  /** The thesis's numbers of the same model: its row for K gives messages and volume, or null where it has none. */
  thesis: (k: number) => { messages: number | null; volume: number | null };
}

interface Measured {
  merge: { pagesFetched: number };
  measured: { messages: number; volume: number };
  prediction: { messages: number; volume: number } | null;
}

function thesisRow(rows: typeof TURK_PAGE, k: number, pick: (r: (typeof TURK_PAGE)[number]) => { messages: number | null; volume: number | null }) {
  const row = rows.find((r) => r.k === k);
  return row ? pick(row) : { messages: null, volume: null };
}

/** The four assignments; the partitions of the earlier crawl's graph, where the partitioners are installed. */
function assignments(dir: string, earlier: string, skipped: string[], partitioners: boolean): Assignment[] {
  const out: Assignment[] = [
    // The thesis counts a site's messages per (site, remote part); the crawler sends one per (page, remote part): no messages beside the site rows.
    { name: 'host hash', model: 'site', vector: null, thesis: (k) => thesisRow(TURK_SITE, k, (r) => ({ messages: null, volume: r.volume[1] })) },
    { name: 'URL hash', model: 'page', vector: null, thesis: (k) => thesisRow(TURK_PAGE, k, (r) => ({ messages: r.messages[1], volume: r.volume[1] })) },
  ];
  if (!partitioners) return out;
  const exported = (model: 'site' | 'page-hypergraph', format: 'metis' | 'hmetis', file: string) => {
    const g = loadLinkGraph(earlier, {});
    try {
      exportGraph(g, { model, format, out: file, force: true });
    } finally {
      g.close();
    }
    return file;
  };
  const gpmetis = findGpmetis();
  if (!gpmetis.path) skipped.push(`METIS site partition: ${gpmetis.missing}`);
  else {
    let file: string | null = null;
    out.push({
      name: 'METIS sites', model: 'site', vector: (k) => runGpmetis(gpmetis, (file ??= exported('site', 'metis', join(dir, 'sites.metis'))), k, 1),
      thesis: (k) => thesisRow(TURK_SITE, k, (r) => ({ messages: null, volume: r.volume[0] })),
    });
  }
  const zoltan = findZoltan();
  if (!zoltan.path) skipped.push(`Zoltan PHG page partition: ${zoltan.missing}`);
  else {
    let file: string | null = null;
    out.push({
      name: 'Zoltan PHG pages', model: 'page', vector: (k) => runZoltan(zoltan, (file ??= exported('page-hypergraph', 'hmetis', join(dir, 'pages.hgr'))), k, 1),
      thesis: (k) => thesisRow(TURK_PAGE, k, (r) => ({ messages: r.messages[0], volume: null })),
    });
  }
  return out;
}

const perPage = (x: number | null, pages: number) => (x === null ? null : (x / pages).toFixed(3));

export async function turkMeasured(ctx: StepContext): Promise<StepResult> {
  const { sites, pages, parts, partitioners } = ctx.scale.parallel;
  const dir = join(ctx.outDir, 'turk-parallel');
  rmSync(dir, { recursive: true, force: true });
  makeFolders(dir);
  const seeds = join(dir, 'seeds.txt');
  const webArgs = ['--web-seed', String(WEB_SEED), '--sites', String(sites), '--pages', String(pages), '--latency', 'off'];
  const web = await startTestWeb([...webArgs, '--seeds-out', seeds]);
  const rows: Cell[][] = [];
  const skipped: string[] = [];
  let earlierPages = 0;
  try {
    const flags = ['--seeds', seeds, ...web.info.resolve.split(',').flatMap((rule) => ['--resolve', rule]), ...CRAWL];
    const earlier = join(dir, 'earlier.db');
    earlierPages = (await runCrawl(['--db', earlier, ...flags])).pagesFetched;
    ctx.log(`  the earlier crawl (one process): ${earlierPages} pages`);
    const plans = assignments(dir, earlier, skipped, ctx.scale.parallel.partitioners);
    for (const k of parts) {
      for (const a of plans) {
        const assign = a.vector ? await a.vector(k) : 'hash';
        const s = (await runCrawl(['--db', join(dir, `k${k}-${a.name.replace(/\W+/g, '-')}.db`), ...flags, '--parts', String(k), '--model', a.model, '--assign', assign, '--predict-from', earlier])) as unknown as Measured;
        const n = s.merge.pagesFetched;
        const t = a.thesis(k);
        ctx.log(`  K = ${k}, ${a.name}: measured ${s.measured.messages} messages / ${s.measured.volume} B, predicted ${s.prediction?.messages ?? '-'} / ${s.prediction?.volume ?? '-'} B`);
        rows.push([k, a.name, a.model, n, s.measured.messages, s.prediction?.messages ?? null, s.measured.volume, s.prediction?.volume ?? null,
          perPage(s.measured.messages, n), perPage(t.messages, TURK_DATASET.pages), perPage(s.measured.volume, n), perPage(t.volume, TURK_DATASET.pages)]);
      }
    }
  } catch (err) {
    // Without nats-server the parallel crawl refuses in one line: the step says why and draws nothing.
    if (/nats-server/.test((err as Error).message)) return { paper: 'turk', step: 'measured', seconds: 0, items: [], settings: [], skipped: (err as Error).message };
    throw err;
  } finally {
    await web.stop();
  }
  const crawlCmd = `crawlbench crawl --db DB --seeds SEEDS --resolve '*.demo=127.0.0.1' ${CRAWL.join(' ')}`;
  const table: Table = {
    kind: 'table', id: 'turk-measured', title: 'Tables 6.4 and 6.5 on a running crawler: the exchange measured against the prediction',
    cite: 'Türk, section 6.2, Tables 6.4 and 6.5 (predicted there; measured here)',
    columns: ['K', 'assignment', 'model', 'pages', 'messages measured', 'predicted', 'volume measured (URL bytes)', 'predicted', 'messages/page', 'thesis messages/page', 'volume/page', 'thesis volume/page'],
    rows,
    commands: [
      `crawlbench testweb ${webArgs.join(' ')} --seeds-out SEEDS`,
      `${crawlCmd}   (the earlier crawl, EARLIER)`,
      `${crawlCmd} --parts K --model site|page --assign hash|PARTFILE --predict-from EARLIER --json`,
      'crawlbench export-graph --graph EARLIER --model site --format metis --out sites.metis; gpmetis -ptype=kway -ubvec="1.05 1.05" -seed=1 sites.metis K',
      'crawlbench export-graph --graph EARLIER --model page-hypergraph --format hmetis --out pages.hgr (Zoltan PHG, seed 1, through crawlbench\'s driver)',
    ],
    notes: [
      `the earlier crawl (one process) fetched ${earlierPages} pages; a hash assignment is partition-eval's FNV-1a of the URL (page) or of the host (site)`,
      `the thesis's per-page numbers are its predictions on ${TURK_DATASET.pages.toLocaleString('en-US')} pages (host hash: Table 6.5's site hash volume; URL hash: Table 6.4's page hash; METIS sites: Table 6.5's site GP volume; Zoltan PHG pages: Table 6.4's page HP messages); its site-level messages count one per (site, remote part), where the crawler sends one per (page, remote part), so they stand beside no row`,
      ...skipped,
    ],
  };
  return {
    paper: 'turk', step: 'measured', seconds: 0, items: [table],
    settings: [
      { name: 'web', value: `the test web on loopback: ${web.info.pages.toLocaleString('en-US')} pages on ${web.info.sites} sites (web seed ${WEB_SEED})`, paper: `${TURK_DATASET.pages.toLocaleString('en-US')} pages on ${TURK_DATASET.sites.toLocaleString('en-US')} US education sites (Table 6.1)`, differs: true },
      { name: 'crawler', value: 'crawlbench crawl --parts K: K worker processes on this machine exchanging URLs over NATS JetStream, one message per (page, remote part)', paper: 'none: the prediction from the graph', differs: true },
      { name: 'K', value: parts.join(', '), paper: 'page 2-256, site 2-64', differs: true },
      { name: 'partitioners', value: partitioners ? 'gpmetis on the site graph, Zoltan PHG on the page hypergraph, seed 1, one run' : 'none at this scale: the two hashes only', paper: 'MeTiS and PaToH, 8 runs averaged', differs: true },
    ],
  };
}
