/**
 * The external partitioners, run as separate programs (METIS is Apache-2.0 and KaHyPar GPL-3.0;
 * running them as programs keeps crawlbench free of either license's linking terms):
 * - gpmetis, from Debian's `metis` package, found on PATH;
 * - Zoltan's hypergraph partitioner PHG (Debian's libtrilinos-zoltan-dev, BSD), through
 *   crawlbench's own driver resources/zoltan/phg-driver.c, compiled by resources/zoltan/build.sh
 *   into the cache folder (CACHE/zoltan/crawlbench-phg) by the test tools' setup or here on first
 *   use, and again when the source is newer than the program;
 * - KaHyPar (optional: nothing on Debian installs it), found through --kahypar PATH, then
 *   CRAWLBENCH_KAHYPAR, then PATH, then CACHE/kahypar/bin/KaHyPar; its km1 preset is looked for
 *   in the config folder beside its bin folder, where KaHyPar's source tree keeps its presets.
 * A missing tool is not an error for `partition`: its columns stay empty and the line that says
 * how to get it is printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../config/cache-dir.js';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';

export interface Tool {
  name: 'gpmetis' | 'Zoltan PHG' | 'KaHyPar';
  /** The program, or null when it is not found. */
  path: string | null;
  /** KaHyPar's preset file. */
  preset?: string;
  /** Where it was looked for and how to get it (when path is null). */
  missing?: string;
}

export const KAHYPAR_PRESET = 'km1_kKaHyPar_sea20.ini';

const GET_METIS = 'install Debian\'s metis package (apt-get install metis), which has gpmetis and graphchk';
const kahyparHint = () =>
  `build KaHyPar from its public source release (github.com/kahypar/kahypar, with cmake) into a PREFIX with PREFIX/bin/KaHyPar and its presets in PREFIX/config (the source tree's config folder), then pass --kahypar PREFIX/bin/KaHyPar or set CRAWLBENCH_KAHYPAR; crawlbench also looks in ${join(cacheDir(), 'kahypar')}, where npm run setup:test-tools -- --kahypar builds it in a crawlbench clone`;
const ZOLTAN_INSTALL = 'apt-get install gcc libtrilinos-zoltan-dev libopenmpi-dev';

/** Whether `p` is a file this process may run. */
export function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The program `name` on PATH (then in `extra` folders), or null. */
export function onPath(name: string, extra: readonly string[] = []): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...extra]) {
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
    if (!executable(env)) return { name: 'KaHyPar', path: null, missing: `CRAWLBENCH_KAHYPAR=${env} is not an executable program: ${kahyparHint()}` };
    path = resolve(env);
  } else {
    const cached = join(cacheDir(), 'kahypar', 'bin', 'KaHyPar');
    path = onPath('KaHyPar') ?? (executable(cached) ? cached : null);
  }
  if (!path) return { name: 'KaHyPar', path: null, missing: `KaHyPar is not found (--kahypar PATH, CRAWLBENCH_KAHYPAR, KaHyPar on PATH, or ${join(cacheDir(), 'kahypar', 'bin', 'KaHyPar')}): ${kahyparHint()}` };
  const preset = join(dirname(path), '..', 'config', KAHYPAR_PRESET);
  if (!existsSync(preset)) return { name: 'KaHyPar', path: null, missing: `KaHyPar at ${path} has no ${preset} beside it: ${kahyparHint()}` };
  return { name: 'KaHyPar', path, preset: resolve(preset) };
}

/**
 * resources/zoltan/ of this install: CRAWLBENCH_RESOURCES/zoltan where the host says (the
 * desktop app ships it among its resources), else two folders up from core/graph/ in the
 * source tree, three from dist/core/graph/.
 */
function zoltanResources(): string | null {
  if (process.env.CRAWLBENCH_RESOURCES) return join(process.env.CRAWLBENCH_RESOURCES, 'zoltan');
  try {
    const here = import.meta.url;
    return fileURLToPath(new URL(here.endsWith('.ts') ? '../../resources/zoltan/' : '../../../resources/zoltan/', here));
  } catch {
    // A bundle without a module address (Electron's): no resources folder beside it.
    return null;
  }
}

const mtime = (p: string) => statSync(p).mtimeMs;

/**
 * crawlbench's PHG driver: CACHE/zoltan/crawlbench-phg when it is there and not older than its C
 * source, else compiled there now by resources/zoltan/build.sh (a second or two, once). Where
 * Zoltan's headers or a C compiler are missing, `missing` is the line that installs them.
 * Synchronous, so that a caller may ask at any time (the test references probe it).
 */
export function findZoltan(): Tool {
  const program = join(cacheDir(), 'zoltan', 'crawlbench-phg');
  const dir = zoltanResources();
  const source = dir ? join(dir, 'phg-driver.c') : null;
  const haveSource = source !== null && existsSync(source);
  if (executable(program) && (!haveSource || mtime(program) >= mtime(source))) return { name: 'Zoltan PHG', path: program };
  if (!haveSource) return { name: 'Zoltan PHG', path: null, missing: `crawlbench's Zoltan PHG driver is not built (${program}) and its source (resources/zoltan/phg-driver.c) is not in this install: build it from a crawlbench source tree with bash resources/zoltan/build.sh ${program} (after ${ZOLTAN_INSTALL})` };
  // bash from PATH, else where Debian has it: a PATH without a compiler still runs the script, which says what to install.
  const bash = onPath('bash') ?? ['/bin/bash', '/usr/bin/bash'].find(executable) ?? 'bash';
  const r = spawnSync(bash, [join(dir!, 'build.sh'), program], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  if (r.error) return { name: 'Zoltan PHG', path: null, missing: `crawlbench's Zoltan PHG driver could not be built (bash: ${r.error.message}): ${ZOLTAN_INSTALL}` };
  const said = (r.stderr ?? '').trim().split('\n').filter(Boolean);
  // Status 3: something to install, said in one line.
  if (r.status === 3) return { name: 'Zoltan PHG', path: null, missing: said.at(-1) ?? `crawlbench's Zoltan PHG driver needs ${ZOLTAN_INSTALL}` };
  if (r.status !== 0 || !executable(program)) {
    return { name: 'Zoltan PHG', path: null, missing: `crawlbench's Zoltan PHG driver did not compile (bash resources/zoltan/build.sh ${program}: ${said.slice(-3).join(' | ') || `status ${r.status ?? r.signal}`})` };
  }
  return { name: 'Zoltan PHG', path: program };
}

/**
 * The driver's environment beside the caller's: it starts as an MPI singleton, without mpirun.
 * Open MPI 4.1's singleton would start a daemon (orted) beside it and probe the network and X
 * displays; one process needs neither.
 */
export const ZOLTAN_ENV: Readonly<Record<string, string>> = {
  // No supporting daemon: the process works alone (no MPI_Comm_spawn, which PHG never calls).
  OMPI_MCA_ess_singleton_isolated: '1',
  // One process talks only to itself: no TCP or shared-memory transport is opened.
  OMPI_MCA_btl: 'self',
  // hwloc's topology discovery leaves out its OpenGL part, which tries X displays :0 to :9.
  HWLOC_COMPONENTS: '-gl',
  // Open MPI refuses root only in its launchers (mpirun, orted); set in case a build's singleton checks too.
  OMPI_ALLOW_RUN_AS_ROOT: '1',
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1',
};

/** Runs a program; resolves when it exits 0, else rejects with its status and last output. */
function run(tool: Tool, args: string[], signal?: AbortSignal, env?: Readonly<Record<string, string>>): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    if (signal?.aborted) return reject(new CrawlError(ErrorCodes.CANCELLED, 'partitioning cancelled'));
    const child = spawn(tool.path!, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env: { ...process.env, ...env } } : {}) });
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

/**
 * Zoltan PHG through crawlbench's driver: connectivity-1 objective, 5% imbalance, the vertex
 * weights (sizes) and net costs of the hMETIS file, Zoltan's SEED parameter = seed; returns its
 * part file.
 */
export async function runZoltan(tool: Tool, hgrFile: string, k: number, seed: number, signal?: AbortSignal): Promise<string> {
  const out = `${hgrFile}.part${k}.epsilon0.05.seed${seed}.PHG`;
  rmSync(out, { force: true });
  await run(tool, [hgrFile, String(k), String(seed), out], signal, ZOLTAN_ENV);
  if (!existsSync(out)) throw new CrawlError(ErrorCodes.TOOL_FAILED, `Zoltan PHG wrote no ${out}`);
  return out;
}
