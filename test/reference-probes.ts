/**
 * The registry of outside references (what test/references.ts gates tests on), kept free of
 * vitest's test API so that the global setup and the reporter, which run outside the test
 * processes, can probe them too.
 *
 * The outside references some tests check crawlbench against (an independent PageRank, a real
 * browser, real partitioners, a real broker, a real dataset): one registry, one probe and one
 * hint each, used by every test file that needs one.
 *
 * - A test file gates a suite or a test with `describeWith(['networkx'], name, fn)` or
 *   `itWith([...], name, fn)`. Where a reference is absent the suite is skipped, its name says
 *   what it needs, and the reporter (test/references-reporter.ts) ends the run with one block
 *   naming every absent reference, how many tests it held back and the command that brings it.
 * - `CRAWLBENCH_TEST_ALL=1` (which .ci/run exports) or `CI=true`: nothing may skip. The global
 *   setup (test/references-setup.ts) fails the run at once, naming each absent reference, but
 *   for the optional ones (KaHyPar, which nothing here can install, and Python warcio, which
 *   only pip brings), which skip with their note.
 * - `CRAWLBENCH_TEST_HIDE=networkx,chromium,...` (or `all`): those probes report absent, so the
 *   skip path itself can be tested (test/references.test.ts).
 *
 * Probes run once per process and are remembered in the environment (CRAWLBENCH_TEST_PROBED),
 * which the global setup fills before the test processes start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir } from '../core/config/cache-dir.js';
import { executable, findGpmetis, findKahypar, findZoltan, onPath } from '../core/graph/tools.js';

export type RefName = 'networkx' | 'chromium' | 'metis' | 'zoltan' | 'kahypar' | 'nats-server' | 'uci' | 'warcio-py';

interface Reference {
  name: RefName;
  /** What it is and what the tests use it for. */
  what: string;
  /** The program or folder found, or null when absent. */
  probe(): string | null;
  /** The one command (or step) that brings it. */
  hint: string;
  /** Skips with its note even under CRAWLBENCH_TEST_ALL: nothing on a Debian machine installs it. */
  optional?: true;
}

export const PYTHON = '/usr/bin/python3';
export const CHROMIUM = '/usr/bin/chromium';

/** Whether `program args` runs and exits 0 within the time given (a present but broken tool is absent). */
function runs(program: string, args: string[], timeout = 20_000): boolean {
  const r = spawnSync(program, args, { stdio: 'ignore', timeout });
  return r.status === 0;
}

function pythonModule(mod: string): string | null {
  return executable(PYTHON) && runs(PYTHON, ['-c', `import ${mod}`]) ? PYTHON : null;
}

/** Chromium present and able to start headless (the e2e files launch it the same way). */
function chromiumStarts(): string | null {
  if (!executable(CHROMIUM)) return null;
  const profile = mkdtempSync(join(tmpdir(), 'cb-chromium-probe-'));
  try {
    const ok = runs(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', `--user-data-dir=${profile}`, '--dump-dom', 'about:blank'], 60_000);
    return ok ? CHROMIUM : null;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

function uciFolder(): string | null {
  const dir = process.env.CRAWLBENCH_UCI ?? join(cacheDir(), 'datasets', 'uci-ics-2019');
  return existsSync(join(dir, 'pages.tsv.gz')) && existsSync(join(dir, 'links.tsv.gz')) ? dir : null;
}

const SETUP = 'npm run setup:test-tools';

export const REFERENCES: readonly Reference[] = [
  {
    name: 'networkx',
    what: "Python networkx, the independent PageRank, Kendall's tau and GraphML reader (its pagerank needs SciPy)",
    probe: () => pythonModule('networkx, scipy'),
    hint: `apt-get install python3-networkx python3-scipy (or ${SETUP})`,
  },
  {
    name: 'chromium',
    what: 'Chromium, the browser the workbench end-to-end tests drive',
    probe: chromiumStarts,
    hint: `apt-get install chromium (or ${SETUP})`,
  },
  {
    name: 'metis',
    what: 'gpmetis and graphchk, the graph partitioner and METIS file checker',
    probe: () => {
      const gpmetis = findGpmetis().path;
      const graphchk = onPath('graphchk');
      return gpmetis && graphchk && runs(gpmetis, ['-help']) && runs(graphchk, []) ? gpmetis : null;
    },
    hint: `apt-get install metis (or ${SETUP})`,
  },
  {
    name: 'zoltan',
    what: "Zoltan's hypergraph partitioner PHG, through crawlbench's driver compiled against it",
    probe: () => findZoltan().path,
    hint: `apt-get install libtrilinos-zoltan-dev libopenmpi-dev gcc (crawlbench compiles its driver on first use), or ${SETUP}`,
  },
  {
    name: 'kahypar',
    what: 'KaHyPar, the hypergraph partitioner the thesis tables were first compared with',
    probe: () => findKahypar().path,
    hint: `build it from its source release (github.com/kahypar/kahypar, cmake) into ${join('$CRAWLBENCH_CACHE', 'kahypar')} or set CRAWLBENCH_KAHYPAR=PATH/bin/KaHyPar; ${SETUP} -- --kahypar builds it on a machine that reaches that release`,
    optional: true,
  },
  {
    name: 'nats-server',
    what: 'nats-server with JetStream, the broker of the parallel crawl',
    probe: () => {
      const p = onPath('nats-server', ['/usr/sbin']);
      return p && runs(p, ['--version']) ? p : null;
    },
    hint: `apt-get install nats-server (or ${SETUP})`,
  },
  {
    name: 'uci',
    what: 'the UCI ICS web graph (53,769 pages of *.ics.uci.edu, crawled about 2019 for the UCI CS 121 course), a real web graph',
    probe: uciFolder,
    hint:
      'not shipped with crawlbench (no terms allow republishing it): get the course\'s "developer" corpus of *.ics.uci.edu, ' +
      'turn it into pages.tsv.gz (id, URL) and links.tsv.gz (source id, target id), and set CRAWLBENCH_UCI=DIR ' +
      `(or put them in ${join('$CRAWLBENCH_CACHE', 'datasets', 'uci-ics-2019')})`,
  },
  {
    name: 'warcio-py',
    what: 'Python warcio, a second independent WARC reader beside the npm one',
    probe: () => pythonModule('warcio'),
    hint: `pip install warcio (${SETUP} tries it where pip reaches its registry)`,
    optional: true,
  },
];

export function reference(name: RefName): Reference {
  const ref = REFERENCES.find((r) => r.name === name);
  if (!ref) throw new Error(`no test reference named ${name}`);
  return ref;
}

function hidden(): Set<string> {
  const names = (process.env.CRAWLBENCH_TEST_HIDE ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return new Set(names.includes('all') ? REFERENCES.map((r) => r.name) : names);
}

/** Whether the run must not skip (CRAWLBENCH_TEST_ALL=1 or CI=true). */
export function testAll(): boolean {
  const all = process.env.CRAWLBENCH_TEST_ALL;
  return (all !== undefined && all !== '' && all !== '0') || process.env.CI === 'true';
}

const PROBED = 'CRAWLBENCH_TEST_PROBED';

function remembered(): Record<string, string | null> {
  try {
    return JSON.parse(process.env[PROBED] ?? '{}') as Record<string, string | null>;
  } catch {
    return {};
  }
}

/** The path the reference was found at, or null when absent (or hidden). Probed once per process tree. */
export function probe(name: RefName): string | null {
  if (hidden().has(name)) return null;
  const known = remembered();
  if (name in known) return known[name]!;
  let found: string | null;
  try {
    found = reference(name).probe();
  } catch (err) {
    // A probe that fails (a tool that crashes, a broken install) finds the reference absent.
    process.stderr.write(`probe of ${name} failed: ${(err as Error).message}\n`);
    found = null;
  }
  process.env[PROBED] = JSON.stringify({ ...known, [name]: found });
  return found;
}

export const present = (name: RefName): boolean => probe(name) !== null;

/** The program or folder of a reference the test needs (throws, naming it, when absent). */
export function refPath(name: RefName): string {
  const p = probe(name);
  if (p === null) throw new Error(`${reference(name).what} is absent: ${reference(name).hint}`);
  return p;
}

/** The marker a gated suite's or test's name ends with, read back by the reporter. */
export const NEEDS = /\s\[needs ([a-z0-9-]+(?:, [a-z0-9-]+)*)\]$/;
