/**
 * The exports of a workspace: each runs in a worker thread of its own (worker-jobs.ts), so the
 * engine's thread answers the UI's calls meanwhile, reports progress as
 * events at most five times a second, can be cancelled, and leaves a manifest beside its
 * files so that a later session lists it too. Browser mode writes under WORKSPACE/exports/ID/
 * (served for download by browser-server.ts); Electron writes where its save dialog said. Each
 * takes one of the engine's slots for heavy jobs (job-slots.ts) from its start to its end.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import { parseExportOptions, type ExportOptions } from '../export/options.js';
import { ExportRequestSchema } from '../export/request-schema.js';
import type { ExportProgressInfo } from '../export/run-export.js';
import { EXPORT_FORMATS, EXPORT_TABLES, type ExportJobDto, type ExportRequest, type HostCapabilities } from './contract.js';
import { workspaceHost } from './host.js';
import { heavyJobSlots, type JobSlots } from './job-slots.js';
import { checkRequest } from './request-check.js';
import { toWireError } from './rpc.js';
import { WorkerJobs, type RunningJob } from './worker-jobs.js';
import { makeFolders } from '../folders.js';

/** The contract's lists are the engine's (a compile-time check that they agree). */
const SAME_FORMATS: readonly ExportOptions['format'][] = EXPORT_FORMATS;
const SAME_TABLES: readonly ExportOptions['what'][] = EXPORT_TABLES;
void SAME_FORMATS;
void SAME_TABLES;

const EXTENSIONS = { jsonl: 'jsonl', csv: 'csv', parquet: 'parquet' } as const;
const MANIFEST = 'manifest.json';

export interface ExportJobsOptions {
  /** Who says where an export goes (default: the workspace's exports folder, as browser mode does). */
  host?: HostCapabilities;
  /** Slow every export down (ms after each chunk): lets tests and demonstrations watch progress and cancel. */
  throttleMs?: number;
  /** The job worker's compiled file (Electron's bundle passes its own). */
  workerFile?: string;
  /** The engine's slots for heavy jobs (shared with comparisons and graph jobs); default: slots of its own. */
  slots?: JobSlots;
}

interface Job {
  dto: ExportJobDto;
  thread: RunningJob<unknown> | null;
  started: number;
}

export class ExportJobs {
  private readonly jobs = new Map<string, Job>();
  readonly events = new EventEmitter();
  private readonly threads: WorkerJobs;
  private readonly slots: JobSlots;

  constructor(
    /** WORKSPACE/exports: one folder per export. */
    readonly dir: string,
    private readonly opts: ExportJobsOptions = {},
  ) {
    this.events.setMaxListeners(100);
    this.threads = new WorkerJobs(opts.workerFile);
    this.slots = opts.slots ?? heavyJobSlots();
  }

  async start(crawlId: string, dbPath: string, raw: ExportRequest): Promise<{ exportId: string }> {
    const req = (raw ?? {}) as ExportRequest & { out?: unknown };
    // The page never names a path: the host does (a save dialog, or the workspace).
    if (req.out !== undefined) throw badField('out', 'the workbench chooses where an export goes; a path cannot be given here');
    const exportId = `${crawlId}-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
    const folder = join(this.dir, exportId);
    const format = req.format;
    const what = req.what ?? 'pages';
    const name = format === 'warc' ? 'warc' : `${crawlId}-${what}.${EXTENSIONS[format as keyof typeof EXTENSIONS] ?? 'out'}`;
    const input = {
      format, what: req.what, prefix: crawlId, cdx: req.cdx, maxFileSize: req.maxFileSize, throttleMs: this.opts.throttleMs ?? 0,
      filters: { sites: req.sites, statuses: req.statuses, contentTypes: req.contentTypes, seq: req.seq },
    };
    // Checked before the host is asked: no dialog opens for a request that would be refused.
    const checked = checkRequest(ExportRequestSchema, input, 'an export');
    this.slots.check();
    const target = await (this.opts.host ?? workspaceHost).chooseExportTarget({
      crawlId, format: checked.format, what: checked.what, folder: checked.format === 'warc', suggestedName: name, defaultOut: join(folder, name),
    });
    if (!target) throw new CrawlError(ErrorCodes.CANCELLED, 'no place was chosen for the export');
    const options = parseExportOptions({ ...input, out: target.out, force: target.replace });
    // Taken once the place is chosen (a dialog left open holds no slot), given back as the export ends.
    const release = this.slots.take(`an export of "${crawlId}"`, [crawlId]);
    const dto: ExportJobDto = {
      exportId, crawlId, format: options.format, what: options.what, state: 'running', done: 0, total: 0,
      unit: options.format === 'warc' ? 'pages' : options.what, bytesWritten: 0, etaSeconds: null,
      startedAt: new Date().toISOString(), endedAt: null, files: [], warnings: [], error: null,
    };
    const job: Job = { dto, thread: null, started: performance.now() };
    this.jobs.set(exportId, job);
    void this.run(job, dbPath, options, folder, release);
    return { exportId };
  }

  cancel(exportId: string): Promise<ExportJobDto> {
    const job = this.jobs.get(String(exportId));
    if (!job) return Promise.reject(new CrawlError(ErrorCodes.BAD_OPTION, `no export "${String(exportId)}" under way`, { field: 'exportId' }));
    if (job.dto.state !== 'running') return Promise.resolve(job.dto);
    job.thread?.cancel();
    return new Promise((resolve) => {
      const done = (e: ExportJobDto) => {
        if (e.exportId !== job.dto.exportId || e.state === 'running') return;
        this.events.off('exportProgress', done);
        resolve(e);
      };
      this.events.on('exportProgress', done);
    });
  }

  /** This session's exports and the finished ones kept in the workspace, newest first. */
  list(crawlId?: string): ExportJobDto[] {
    const out = new Map<string, ExportJobDto>();
    if (existsSync(this.dir)) {
      for (const id of readdirSync(this.dir)) {
        const file = join(this.dir, id, MANIFEST);
        if (!existsSync(file)) continue;
        try {
          const dto = JSON.parse(readFileSync(file, 'utf8')) as ExportJobDto;
          out.set(dto.exportId, { ...dto, files: dto.files.filter((f) => existsSync(f.path)) });
        } catch {
          /* a manifest being written, or damaged: not listed */
        }
      }
    }
    for (const j of this.jobs.values()) out.set(j.dto.exportId, j.dto);
    return [...out.values()].filter((d) => crawlId === undefined || d.crawlId === crawlId).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** Running exports are cancelled (their files removed). */
  async close(): Promise<void> {
    await Promise.all([...this.jobs.values()].filter((j) => j.dto.state === 'running').map((j) => this.cancel(j.dto.exportId)));
  }

  private async run(job: Job, dbPath: string, options: ExportOptions, folder: string, release: () => void): Promise<void> {
    const dto = job.dto;
    const emit = () => this.events.emit('exportProgress', { ...dto, files: [...dto.files], warnings: [...dto.warnings] });
    try {
      const thread = this.threads.start({ what: 'export', dbPath, options: { ...options } }, (progress) => {
        const p = progress as ExportProgressInfo;
        Object.assign(dto, { done: p.done, total: p.total, bytesWritten: p.bytesWritten, etaSeconds: eta(job, p.done, p.total) });
        emit();
      });
      job.thread = thread;
      const summary = await thread.result;
      Object.assign(dto, {
        state: 'finished', done: dto.total, etaSeconds: 0, endedAt: new Date().toISOString(), warnings: summary.warnings,
        files: summary.files.map((f) => ({ name: basename(f.path), bytes: f.bytes, path: f.path, href: this.href(f.path) })),
        bytesWritten: summary.files.reduce((n, f) => n + f.bytes, 0),
      });
      this.saveManifest(folder, dto);
    } catch (err) {
      const cancelled = (err as CrawlError).code === ErrorCodes.CANCELLED;
      Object.assign(dto, { state: cancelled ? 'cancelled' : 'failed', endedAt: new Date().toISOString(), etaSeconds: null, error: toWireError(err) });
    }
    // Before the last event: whoever it tells that the export ended may start another at once.
    release();
    emit();
  }

  /** The download address of a file under the exports folder (browser-server.ts serves /exports/...). */
  private href(path: string): string | null {
    const rel = relative(this.dir, path);
    if (rel.startsWith('..') || rel.includes(`..${sep}`)) return null;
    return '/exports/' + rel.split(sep).map(encodeURIComponent).join('/');
  }

  private saveManifest(folder: string, dto: ExportJobDto): void {
    makeFolders(folder);
    const tmp = join(folder, `.${MANIFEST}.partial`);
    writeFileSync(tmp, JSON.stringify(dto, null, 2));
    renameSync(tmp, join(folder, MANIFEST));
  }
}

function eta(job: Job, done: number, total: number): number | null {
  const elapsed = (performance.now() - job.started) / 1000;
  if (done <= 0 || elapsed < 0.5 || total <= done) return total <= done ? 0 : null;
  return Math.round((elapsed * (total - done)) / done);
}
