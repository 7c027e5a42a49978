/**
 * Nothing a user's clone gets may point at a file only a development machine has. The papers'
 * summary, the datasets and third-party sources used to sit in a `shared` folder beside the
 * repository (`../shared/...`), and a comment named a folder of one machine (`/work/...`): a
 * clone has neither. So the shipped text (README, docs, the code, benchmarks and scripts) may
 * name no `../shared` (nor `shared/datasets`, `shared/third-party`, `shared/papers`) and no
 * absolute filesystem path except system programs and standard locations, listed below with
 * why each is allowed. A dataset is named by an environment variable (CRAWLBENCH_UCI), a tool
 * by a command that installs it, a paper by author, title and section (docs/design.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
/** What a clone ships besides the tests (test/ may name fixtures freely). */
const PLACES = ['README.md', 'package.json', 'docs', 'core', 'renderer', 'electron', 'bin', 'bench', 'scripts', 'resources'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'out', 'release', 'artifacts']);
const TEXT = /\.(md|ts|vue|js|mjs|cjs|json|sh|c|h|yml|yaml|html|css|txt)$/;

/** Where the papers, datasets and third-party sources lived on the development machine. */
const SHARED = /\.\.\/shared\b|\bshared\/(datasets|third-party|papers)\b/;

/**
 * An absolute path under a top-level folder that belongs to a machine or a system, standing
 * alone: at the start of a line or after a space, quote, `=`, `(`, `:`, `>`, `!` and the like,
 * never after a host name or another path segment (`http://host/usr/x`, `a/var/b` and URL
 * paths such as `/api/call` or `/private/` are not filesystem paths of this kind).
 */
const ABSOLUTE =
  /(?<![\w.~/-])\/(?:home|work|workspace|root|Users|var|opt|mnt|srv|usr|etc|tmp|dev|proc|media|Volumes|nix|snap)(?=[/\s"'`)\]}<>,;|]|$)[^\s"'`)\]}<>,;|]*/g;
/** A Windows user folder. */
const WINDOWS = /\b[A-Za-z]:\\(?:Users|home)\\[^\s"'`)]*/g;

/** System programs and standard locations that are the same on every machine. */
const ALLOWED: ReadonlyArray<{ path: RegExp; why: string }> = [
  { path: /^\/usr\/bin\/(env|bash|sh|node|python3|time)$/, why: 'interpreters in shebangs and commands' },
  { path: /^\/usr\/bin\/(chromium|gpmetis|graphchk)$/, why: "Debian's chromium and metis programs, where the packages install them" },
  { path: /^\/usr\/sbin\/nats-server$/, why: "Debian's nats-server" },
  { path: /^\/usr\/include(\/.*)?$/, why: 'system headers (the Zoltan driver is compiled against them)' },
  { path: /^\/usr\/lib(\/.*)?$/, why: 'system libraries (the Zoltan driver links them)' },
  { path: /^\/dev\/(null|stdin|stdout|stderr)$/, why: 'the standard devices' },
  { path: /^\/proc(\/.*)?$/, why: "Linux's process information (memory and CPU of the benchmarks)" },
  { path: /^\/tmp(\/.*)?$/, why: 'scratch files in examples and logs' },
  {
    path: /^\/(etc\/ssl\/certs\/ca-certificates\.crt|etc\/pki\/tls\/certs\/ca-bundle\.crt|etc\/ssl\/ca-bundle\.pem|etc\/ssl\/cert\.pem|usr\/local\/share\/certs\/ca-root-nss\.crt)$/,
    why: "the operating systems' CA bundles (Debian, Fedora, openSUSE, Alpine and macOS, FreeBSD), which a crawl trusts: Node 20 does not read them itself",
  },
];

export interface Finding {
  line: number;
  text: string;
  problem: string;
}

/** Every line of `text` that names ../shared or an absolute path outside the allow-list. */
export function userPathProblems(text: string): Finding[] {
  const out: Finding[] = [];
  text.split('\n').forEach((raw, i) => {
    // file:///home/x is a path too: scan what follows the scheme as if it stood alone.
    const line = raw.replace(/file:\/\//g, ' ');
    const shared = SHARED.exec(line);
    if (shared) out.push({ line: i + 1, text: raw.trim(), problem: `names ${shared[0]}, which a clone does not have` });
    for (const m of line.matchAll(ABSOLUTE)) {
      const path = m[0].replace(/[.:]+$/, '');
      if (!ALLOWED.some((a) => a.path.test(path))) out.push({ line: i + 1, text: raw.trim(), problem: `absolute path ${path}` });
    }
    for (const m of line.matchAll(WINDOWS)) out.push({ line: i + 1, text: raw.trim(), problem: `absolute path ${m[0]}` });
  });
  return out;
}

function files(place: string): string[] {
  const abs = join(ROOT, place);
  let st;
  try {
    st = statSync(abs);
  } catch {
    return [];
  }
  if (st.isFile()) return TEXT.test(place) ? [place] : [];
  return readdirSync(abs).flatMap((name) => (SKIP_DIRS.has(name) ? [] : files(join(place, name))));
}

describe('user-facing paths', () => {
  it('the scanner finds what it must and lets the system locations pass', () => {
    const bad = [
      'see ../shared/design.md section 2',
      'U=shared/datasets/uci-ics-2019',
      'bash shared/third-party/build-kahypar.sh',
      ' * format of /work/shared/datasets/uci-ics-2019.',
      'cp out.csv /home/alice/results/',
      "const dir = '/root/crawls';",
      'open file:///Users/bob/x.html',
      'export X=/var/cache/crawlbench/kahypar/bin/KaHyPar',
      'C:\\Users\\carol\\crawl.db',
    ];
    for (const line of bad) expect(userPathProblems(line), line).not.toEqual([]);
    const fine = [
      '#!/usr/bin/env bash',
      'node x.js >/dev/null 2>&1',
      "readFileSync('/proc/self/status')",
      "executablePath: '/usr/bin/chromium'",
      'CFLAGS=-I/usr/include/trilinos',
      'for lib in /usr/lib/*/libtrilinos_zoltan.so; do',
      'log to /tmp/crawlbench-apt.log',
      'GET http://127.0.0.1:8080/api/call and https://example.cl/var/page',
      'Disallow: /private/',
      'a relative path a/usr/b and ~/.cache/crawlbench',
      'the /workspace-like word /workbench',
    ];
    for (const line of fine) expect(userPathProblems(line), line).toEqual([]);
  });

  it('no ../shared and no machine-specific absolute path in what a clone ships', () => {
    const found: string[] = [];
    for (const place of PLACES) {
      for (const file of files(place)) {
        const rel = relative(ROOT, join(ROOT, file));
        for (const f of userPathProblems(readFileSync(join(ROOT, file), 'utf8'))) {
          found.push(`${rel}:${f.line}: ${f.problem}: ${f.text.slice(0, 160)}`);
        }
      }
    }
    expect(found, `name a command, an environment variable or docs/design.md instead:\n${found.join('\n')}`).toEqual([]);
  });
});
