/**
 * The external partitioners, run as separate programs (METIS is Apache-2.0 and KaHyPar GPL-3.0;
 * running them as programs keeps crawlbench free of either license's linking terms):
 * - gpmetis, from Debian's `metis` package, found on PATH;
 * - KaHyPar, found through --kahypar PATH, then CRAWLBENCH_KAHYPAR, then PATH; its km1 preset
 *   is looked for in the config folder beside its bin folder, where build-kahypar.sh puts it.
 * A missing tool is not an error for `partition`: its columns stay empty and the line that says
 * how to get it is printed.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';

export interface Tool {
  name: 'gpmetis' | 'KaHyPar';
  /** The program, or null when it is not found. */
  path: string | null;
  /** KaHyPar's preset file. */
  preset?: string;
  /** Where it was looked for and how to get it (when path is null). */
  missing?: string;
}

export const KAHYPAR_PRESET = 'km1_kKaHyPar_sea20.ini';

const GET_METIS = 'install Debian\'s metis package (apt-get install metis), which has gpmetis and graphchk';
const GET_KAHYPAR =
  'build it with ../shared/third-party/build-kahypar.sh PREFIX (about 90 s; PREFIX/bin/KaHyPar and its presets in PREFIX/config) and pass --kahypar PREFIX/bin/KaHyPar or set CRAWLBENCH_KAHYPAR; where the Python registry is reachable, pip install kahypar gives the same partitioner as a Python module, which crawlbench does not run';

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

export function findGpmetis(): Tool {
  const path = onPath('gpmetis');
  return path ? { name: 'gpmetis', path } : { name: 'gpmetis', path: null, missing: `gpmetis is not on PATH: ${GET_METIS}` };
}

/** `explicit` is --kahypar: a path given that is not a program is bad input, not a missing tool. */
export function findKahypar(explicit?: string): Tool {
  let path: string | null = null;
  if (explicit !== undefined) {
    if (!executable(explicit)) throw badOption('--kahypar', `${explicit} is not an executable program (the KaHyPar binary, e.g. PREFIX/bin/KaHyPar)`);
    path = resolve(explicit);
  } else if (process.env.CRAWLBENCH_KAHYPAR) {
    const env = process.env.CRAWLBENCH_KAHYPAR;
    if (!executable(env)) return { name: 'KaHyPar', path: null, missing: `CRAWLBENCH_KAHYPAR=${env} is not an executable program: ${GET_KAHYPAR}` };
    path = resolve(env);
  } else path = onPath('KaHyPar');
  if (!path) return { name: 'KaHyPar', path: null, missing: `KaHyPar is not found (--kahypar PATH, CRAWLBENCH_KAHYPAR, or KaHyPar on PATH): ${GET_KAHYPAR}` };
  const preset = join(dirname(path), '..', 'config', KAHYPAR_PRESET);
  if (!existsSync(preset)) return { name: 'KaHyPar', path: null, missing: `KaHyPar at ${path} has no ${preset} beside it: ${GET_KAHYPAR}` };
  return { name: 'KaHyPar', path, preset: resolve(preset) };
}

/** Runs a program; resolves when it exits 0, else rejects with its status and last output. */
function run(tool: Tool, args: string[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    if (signal?.aborted) return reject(new CrawlError(ErrorCodes.CANCELLED, 'partitioning cancelled'));
    const child = spawn(tool.path!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (b: Buffer) => {
      tail = (tail + b.toString('utf8')).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new CrawlError(ErrorCodes.TOOL_FAILED, `${tool.name} could not be started (${err.message})`));
    });
    child.once('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(new CrawlError(ErrorCodes.CANCELLED, 'partitioning cancelled'));
      if (code === 0) return resolvePromise();
      const last = tail.trim().split('\n').slice(-3).join(' | ');
      reject(new CrawlError(ErrorCodes.TOOL_FAILED, `${tool.name} ${args.join(' ')} ended with ${sig ?? `status ${code}`}: ${last}`));
    });
  });
}

/**
 * gpmetis, multi-constraint k-way with 5% imbalance on both weights; returns the part file it
 * wrote (FILE.part.K). The objective is the edge cut, which with URL lengths as edge costs is
 * the communication volume.
 */
export async function runGpmetis(tool: Tool, graphFile: string, k: number, seed: number, signal?: AbortSignal): Promise<string> {
  const out = `${graphFile}.part.${k}`;
  rmSync(out, { force: true });
  await run(tool, ['-ptype=kway', '-ubvec=1.05 1.05', `-seed=${seed}`, graphFile, String(k)], signal);
  if (!existsSync(out)) throw new CrawlError(ErrorCodes.TOOL_FAILED, `gpmetis wrote no ${out}`);
  return out;
}

/** KaHyPar, direct k-way on the (connectivity - 1) objective, 5% imbalance; returns its part file. */
export async function runKahypar(tool: Tool, hgrFile: string, k: number, seed: number, signal?: AbortSignal): Promise<string> {
  const out = `${hgrFile}.part${k}.epsilon0.05.seed${seed}.KaHyPar`;
  rmSync(out, { force: true });
  const args = ['-h', hgrFile, '-k', String(k), '-e', '0.05', '-o', 'km1', '-m', 'direct', '-p', tool.preset!, `--seed=${seed}`, '-w', 'true', '-q', 'true'];
  await run(tool, args, signal);
  if (!existsSync(out)) throw new CrawlError(ErrorCodes.TOOL_FAILED, `KaHyPar wrote no ${out}`);
  return out;
}
