/**
 * Python warcio, where pip has installed it (the reference `warcio-py` of test/references.ts):
 * a second independent reader of the WARC files crawlbench writes, beside test/export/warc-reader.ts.
 */
import { spawnSync } from 'node:child_process';
import { PYTHON } from '../references.js';

export function python(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(PYTHON, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
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
