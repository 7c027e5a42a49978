/**
 * A comparison's tables as CSV files (RFC 4180: a header row, fields quoted when they hold a
 * comma, quote or line break) in one folder, written under a temporary name and renamed when
 * complete, so an interrupted run never leaves a folder that looks whole.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlError, ErrorCodes } from '../errors.js';
import { tempName } from '../temp-name.js';
import { makeFolders } from '../folders.js';
import type { CompareReport } from './compare.js';

type Cell = string | number | boolean | null | undefined;

function field(v: Cell): string {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** Every table of the report, by file name. */
export function reportTables(r: CompareReport): Record<string, string> {
  const settingKeys = ['path', 'state', 'policy', 'w', 'c', 'r', 'maxPages', 'maxDepth', 'maxPagesPerSite', 'siteKey', 'userAgent', 'startedAt', 'durationSeconds', 'pagesKnown', 'sites'] as const;
  const json = (v: unknown) => JSON.stringify(v);
  return {
    'settings.csv': csv(['setting', 'a', 'b'], [
      ...settingKeys.map((k) => [k, r.a[k], r.b[k]] as Cell[]),
      ['seeds', json(r.a.seeds), json(r.b.seeds)],
      ['scope', json(r.a.scope), json(r.b.scope)],
      ['policyParams', json(r.a.policyParams), json(r.b.policyParams)],
    ]),
    'sets.csv': csv(['what', 'inA', 'inB', 'onlyA', 'onlyB', 'both', 'jaccard'], [
      ['pages', r.pages.inA, r.pages.inB, r.pages.onlyA, r.pages.onlyB, r.pages.both, r.pages.jaccard],
      ['sites', r.sites.inA, r.sites.inB, r.sites.onlyA, r.sites.onlyB, r.sites.both, r.sites.jaccard],
    ]),
    'status-classes.csv': csv(['status', 'a', 'b'], r.statusClasses.map((s) => [s.status, s.a, s.b])),
    'status-changes.csv': csv(['from', 'to', 'pages'], r.statusChanges.map((s) => [s.from, s.to, s.pages])),
    'common-pages.csv': csv(
      ['pages', 'contentChanged', 'sizeChanged', 'bytesA', 'bytesB', 'acrossSchemes', 'notModifiedA', 'notModifiedB'],
      [[r.common.pages, r.common.contentChanged, r.common.sizeChanged, r.common.bytesA, r.common.bytesB, r.common.acrossSchemes, r.common.notModifiedA, r.common.notModifiedB]],
    ),
    'links.csv': csv(['linksA', 'linksB', 'kept', 'added', 'vanished', 'newShare'], [[r.links.linksA, r.links.linksB, r.links.kept, r.links.added, r.links.vanished, r.links.newShare]]),
    'sites.csv': csv(
      ['site', 'pagesA', 'pagesB', 'growth', 'added', 'removed', 'changed', 'bytesA', 'bytesB', 'errorsA', 'errorsB', 'connectMsA', 'connectMsB', 'pagesPerConnectionA', 'pagesPerConnectionB'],
      r.perSite.map((s) => [s.site, s.pagesA, s.pagesB, s.growth, s.added, s.removed, s.changed, s.bytesA, s.bytesB, s.errorsA, s.errorsB, s.connectMsA, s.connectMsB, s.pagesPerConnectionA, s.pagesPerConnectionB]),
    ),
    'pagerank.csv': csv(['measure', 'value'], [
      ['sourceA', r.pagerank.sourceA],
      ['sourceB', r.pagerank.sourceB],
      ['commonPages', r.pagerank.common],
      ['kendallTauB', r.pagerank.kendallTauB],
      ['spearmanRho', r.pagerank.spearmanRho],
      ...r.pagerank.topK.map((t) => [`top${t.k}Overlap`, t.overlap] as Cell[]),
      ['pagesShareInA', r.pagerank.pagesShareInA],
      ['pageRankShareInA', r.pagerank.pageRankShareInA],
      ['averageCumulativeA', r.pagerank.averageCumulativeA],
      ['averageCumulativeB', r.pagerank.averageCumulativeB],
    ]),
    'movers.csv': csv(['kind', 'url', 'pageRankA', 'pageRankB', 'log2Change'], [
      ...r.pagerank.risers.map((m) => ['riser', m.url, m.pageRankA, m.pageRankB, m.change] as Cell[]),
      ...r.pagerank.fallers.map((m) => ['faller', m.url, m.pageRankA, m.pageRankB, m.change] as Cell[]),
    ]),
    'pages.csv': csv(['kind', 'url', 'pageRankA', 'pageRankB'], (['added', 'removed', 'changed'] as const).flatMap((kind) => r.pageLists[kind].map((p) => [kind, p.url, p.pageRankA, p.pageRankB] as Cell[]))),
    'curves.csv': csv(['crawl', 'pages', 'fraction', 'cumulativePageRank', 'best', 'random'], [
      ...r.pagerank.curveA.map((p) => ['a', p.pages, p.fraction, p.cumulative, p.best, p.random] as Cell[]),
      ...r.pagerank.curveB.map((p) => ['b', p.pages, p.fraction, p.cumulative, p.best, p.random] as Cell[]),
    ]),
    'timelines.csv': csv(['crawl', 'seconds', 'pages', 'pagesPerSecond', 'bytesPerSecond', 'openConnections'], [
      ...(r.timelines.a ?? []).map((p) => ['a', p.t, p.pages, p.pagesPerSecond, p.bytesPerSecond, p.openConnections] as Cell[]),
      ...(r.timelines.b ?? []).map((p) => ['b', p.t, p.pages, p.pagesPerSecond, p.bytesPerSecond, p.openConnections] as Cell[]),
    ]),
    'notes.csv': csv(['kind', 'text'], [...r.warnings.map((w) => ['warning', w] as Cell[]), ...r.notes.map((n) => ['note', n] as Cell[])]),
  };
}

/** Writes every table into `dir` (refused if it exists, unless `force`). */
export function writeReportFiles(r: CompareReport, dir: string, force: boolean): string[] {
  if (existsSync(dir) && !force) throw new CrawlError(ErrorCodes.BAD_OPTION, `--out: ${dir} exists (use --force to replace it)`, { field: 'out' });
  const tmp = tempName(dir, 'compare.tmp', true);
  try {
    makeFolders(tmp);
  } catch (err) {
    // A folder no file can go in (/proc, one without rights): said in one line, not a stack.
    throw new CrawlError(ErrorCodes.BAD_OPTION, `--out: cannot make ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { field: 'out' });
  }
  try {
    const tables = reportTables(r);
    for (const [name, text] of Object.entries(tables)) writeFileSync(join(tmp, name), text);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return Object.keys(tables);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
