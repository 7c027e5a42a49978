/**
 * Python warcio 1.8.1 (../shared/third-party, found from the repository root): the independent
 * reader that checks the WARC files crawlbench writes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WARCIO_PY = join(ROOT, '..', 'shared', 'third-party', 'warcio-py-1.8.1');

/** Debian's python3, where .ci/run installs python3-six; another python3 on PATH otherwise. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export function python(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(PYTHON, args, { env: { ...process.env, PYTHONPATH: WARCIO_PY }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function warcio(args: string[]): { status: number; stdout: string; stderr: string } {
  return python(['-m', 'warcio.cli', ...args]);
}

/** Every record of a WARC file as Python warcio reads it: WARC headers, HTTP status line and header lines, payload. */
export interface PyRecord {
  type: string;
  warc: Record<string, string>;
  statusline: string | null;
  headers: Array<[string, string]>;
  /** The payload as stored (not decoded, not de-chunked), base64. */
  payload: string;
}

const DUMP = `
import sys, json, base64
from warcio.archiveiterator import ArchiveIterator
out = []
with open(sys.argv[1], 'rb') as f:
    for r in ArchiveIterator(f):
        h = r.http_headers
        out.append({
            'type': r.rec_type,
            'warc': dict(r.rec_headers.headers),
            'statusline': (h.protocol + ' ' + h.statusline) if h else None,
            'headers': [list(x) for x in h.headers] if h else [],
            'payload': base64.b64encode(r.raw_stream.read()).decode('ascii'),
        })
json.dump(out, sys.stdout)
`;

export function readRecords(file: string): PyRecord[] {
  const r = python(['-c', DUMP, file]);
  if (r.status !== 0) throw new Error(`python warcio could not read ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as PyRecord[];
}
