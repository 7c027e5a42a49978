import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWeb } from '../../core/testweb/hand-web.js';
import { serve } from '../helpers/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawlbench } from '../helpers/run.js';
import { crawlFileOfSchema, sqlRows } from '../helpers/crawl-db.js';
import { SCHEMA_VERSION } from '../../core/store/migrations/index.js';
import Sqlite from '../../core/store/sqlite.js';

const dir = tmpDir();

const cli = (args: string[]) => crawlbench(args);

async function expectBadInput(args: string[], mention: RegExp) {
  // Bad input ends the command at once: one that starts serving instead (serve, testweb) is killed and fails here.
  const r = await crawlbench(args, { killAfterMs: 30_000 });
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(mention);
  return r;
}

describe('crawlbench CLI: bad input', () => {
  const db = join(dir, 'never.db');

  it('refuses an unknown flag, a duration without unit and a bad number, writing nothing', async () => {
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--bogus'], /bogus/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--w', '15'], /--w: .*needs a unit/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--r', 'many'], /--r/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--c', '0'], /--c/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--policy', 'nonsense'], /unknown policy "nonsense"/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--exclude', '(['], /exclude/i);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--exclude', '(?!www\\.)(a+)+$'], /exclude.*exponential in a URL's length/i);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--resolve', 'nonsense'], /--resolve/);
    // Before: taken, and a piece of a response waited minutes for the cap (a pause with it: Ctrl-C seemed ignored).
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--bandwidth', '100'], /--bandwidth: must be a size from 64 KiB/);
    // Before: a stack trace (exit 1) at the file's lock.
    await expectBadInput(['crawl', '--db', join(dir, 'no-such-folder', 'x.db'), '--seed', 'http://a.demo/'], /--db: the folder .*no-such-folder does not exist/);
    // A user agent no HTTP header can hold: before, taken, and every request of the crawl failed.
    for (const ua of ['probe \u2603', 'probe\r\nX-Injected: 1', 'probe\u0007']) {
      await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--user-agent', ua], /--user-agent: must be what an HTTP header holds/);
    }
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a number written other than in decimal, an empty number and a wait no timer holds, writing nothing', async () => {
    // Before: Number() read "0x10" as 16 and "" as 0, so these crawled with a limit nobody wrote.
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--max-dynamic-depth', ''], /--max-dynamic-depth: "" is not a whole number/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--max-dynamic-depth', '0x10'], /--max-dynamic-depth: "0x10" is not a whole number/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--max-pages', '0x10'], /--max-pages/);
    // Before: taken, and Node printed a TimeoutOverflowWarning and waited 1 ms instead.
    await expectBadInput(['export', join(dir, 'never-export.db'), '--out', join(dir, 'x.jsonl'), '--throttle', '99999h'], /--throttle: "99999h" is longer than the longest wait/);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(join(dir, 'x.jsonl'))).toBe(false);
  });

  it('refuses missing, unreadable and out-of-scope seeds, writing nothing', async () => {
    await expectBadInput(['crawl', '--db', db], /no seed/);
    await expectBadInput(['crawl', '--db', db, '--seeds', join(dir, 'missing.txt')], /--seeds: cannot read .*missing\.txt/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'ftp://a.demo/'], /not an http/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://a.demo/', '--scope', '.cl'], /outside the crawl's scope/);
    // Before: a 10 MB seed line was the whole message, said to be out of scope; a UTF-16 file's NUL bytes reached the terminal.
    const long = await expectBadInput(['crawl', '--db', db, '--seed', `http://a.demo/${'a'.repeat(100_000)}`], /seed "http:\/\/a\.demo\/a+…" \(100,014 characters\) is longer than the crawl's URL limit \(2048 characters\)/);
    expect(long.stderr.length).toBeLessThan(500);
    const utf16 = join(dir, 'utf16.txt');
    writeFileSync(utf16, Buffer.from('\uFEFFhttp://a.demo/\n', 'utf16le'));
    const wide = await expectBadInput(['crawl', '--db', db, '--seeds', utf16], /not an http\(s\) URL \(NUL bytes: a UTF-16 file\? seed files are UTF-8 text\)/);
    expect(wide.stderr).not.toContain('\0');
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a corrupt database and leaves it as it was', async () => {
    const bad = join(dir, 'corrupt.db');
    writeFileSync(bad, 'garbage'.repeat(1000));
    await expectBadInput(['crawl', '--db', bad], /corrupt/);
    expect(readFileSync(bad, 'utf8')).toBe('garbage'.repeat(1000));
  });

  it('refuses an empty file and another program\'s SQLite file without writing to either (before: a schema written into the one, the other switched to WAL)', async () => {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    await expectBadInput(['rank', empty], /empty\.db: an empty file, not a crawl database.*\[CRAWL_DB_NOT_A_CRAWL\]/);
    expect(readFileSync(empty).length).toBe(0);
    const foreign = join(dir, 'foreign.db');
    const other = new Sqlite(foreign);
    other.exec('CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES (\'kept\')');
    other.close();
    const before = readFileSync(foreign);
    await expectBadInput(['rank', foreign], /foreign\.db: a SQLite database, but not a crawlbench crawl/);
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(existsSync(`${foreign}-wal`)).toBe(false);
  });

  it('refuses a port outside 0..65535 or empty (it read as 0) for serve and testweb, in one line, starting nothing', async () => {
    const ws = join(dir, 'port-ws');
    const bad: Array<[string, string]> = [['--port', '70000'], ['--port', ''], ['--port', '80.5'], ['--demo-port', '70000'], ['--demo-port', '']];
    for (const [flag, value] of bad) {
      await expectBadInput(['serve', '--dir', ws, flag, value], new RegExp(`${flag}: "${value.replace('.', '\\.')}" is not a port \\(0\\.\\.65535\\)`));
    }
    await expectBadInput(['serve', '--dir', ws, '--port=-1'], /--port: "-1" is not a port/);
    for (const value of ['70000', '', ' ']) {
      await expectBadInput(['testweb', '--sites', '2', '--pages', '10', '--port', value], new RegExp(`--port: "${value}" is not a port`));
    }
    expect(existsSync(ws)).toBe(false);
  });

  it('refuses a port another program listens on, for serve and testweb, in one line (before: a stack trace)', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const ws = join(dir, 'taken-ws');
      await expectBadInput(['serve', '--dir', ws, '--port', String(port)], new RegExp(`--port: port ${port} on 127\\.0\\.0\\.1 is in use by another program`));
      await expectBadInput(['testweb', '--sites', '2', '--pages', '10', '--port', String(port)], new RegExp(`--port: port ${port} on 127\\.0\\.0\\.1 is in use by another program`));
    } finally {
      holder.close();
    }
  });

  it('an unknown command, or none, exits 2 with one line and its code', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('crawlbench: unknown command "frobnicate" (try crawlbench --help) [CRAWL_BAD_OPTION]\n');
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toMatch(/^usage: crawlbench <command>/m);
    expect(none.stderr).toMatch(/^crawlbench: no command given .*\[CRAWL_BAD_OPTION\]\n$/);
  });
});

describe('crawlbench on a crawl file of an earlier version', () => {
  it('says on stderr that it brings the file up to this schema (minutes for a large crawl), then runs the command; the next run says nothing', async () => {
    const db = join(dir, 'older.db');
    const raw = crawlFileOfSchema(db, 11);
    raw.exec("INSERT INTO sites(id, host, pages_known, pages_fetched) VALUES (1, 'a.test', 2, 2)");
    raw.exec("INSERT INTO pages(id, url, site_id, depth, status, http_status, fetch_seq) VALUES (1, 'http://a.test/', 1, 0, 'fetched', 200, 1), (2, 'http://a.test/b', 1, 1, 'fetched', 200, 2)");
    raw.exec('INSERT INTO links(src, dst) VALUES (1, 2), (2, 1)');
    raw.close();
    const first = await cli(['rank', db]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`crawlbench rank: bringing .*older\\.db up to this version's schema \\(${SCHEMA_VERSION}, from 11\\)`));
    const again = await cli(['rank', db]);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/bringing/);
  });
});

describe('crawlbench crawl', async () => {
  const web = handWeb([
    {
      host: 'a.demo',
      pages: [
        { path: '/', links: ['/x', '/y', 'http://b.demo/'] },
        { path: '/x', links: ['/y'] },
        { path: '/y', links: ['/'] },
      ],
    },
    { host: 'b.demo', pages: [{ path: '/', links: ['http://a.demo/x', '/z'] }, { path: '/z' }] },
  ]);
  const { port } = await serve(web);
  const base = ['--resolve', '*.demo=127.0.0.1', '--w', '0', '--scope', '.demo', '--quiet'];

  it('crawls to the end and prints a JSON summary the database agrees with', async () => {
    const db = join(dir, 'small.db');
    const r = await cli(['crawl', '--db', db, '--seed', `http://a.demo:${port}/`, ...base, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ pagesFetched: 5, sites: 2, stopReason: 'finished' });
    expect(summary.links).toBe(7);
    expect(summary.bytes).toBeGreaterThan(0);
    expect(typeof summary.seconds).toBe('number');
    expect(summary.errors).toEqual({});
  });

  it('writes no CSV, export or merged crawl over a crawl database, its own input or a device, --force or not', async () => {
    // Before: `eval DB --csv DB` and `export DB --out DB --force` turned the crawl into a CSV file,
    // `merge P --out P/part-0.db --force` wrote over a part, and `--out /dev/full --force` replaced the device.
    const db = join(dir, 'kept.db');
    expect((await cli(['crawl', '--db', db, '--seed', `http://a.demo:${port}/`, ...base])).code).toBe(0);
    const other = join(dir, 'other.db');
    copyFileSync(db, other);
    const refused = async (args: string[], mention: RegExp) => {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(mention);
    };
    await refused(['eval', db, '--csv', db], /--csv: .*kept\.db is a SQLite database \(a crawl\?\), not written over/);
    await refused(['eval', db, '--csv', other], /--csv: .*other\.db is a SQLite database/);
    await refused(['export', db, '--format', 'csv', '--out', db, '--force'], /--out: .*kept\.db is what this command reads/);
    await refused(['export-graph', '--graph', db, '--model', 'page', '--format', 'metis', '--out', other, '--force'], /--out: .*other\.db is a SQLite database/);
    await refused(['export', db, '--format', 'csv', '--out', '/dev/null', '--force'], /--out: \/dev\/null is not a regular file/);
    const parts = join(dir, 'm.parts');
    mkdirSync(parts);
    copyFileSync(db, join(parts, 'part-0.db'));
    await refused(['merge', parts, '--out', join(parts, 'part-0.db'), '--force'], /--out: .*part-0\.db is what this command reads/);
    await refused(['merge', db, '--out', join(dir, 'merged.db')], /kept\.db is not a parts folder/);
    // Before: stack traces (exit 1) when the output's folder was missing or a file.
    await refused(['export', db, '--format', 'jsonl', '--out', join(db, 'x.jsonl')], /--out: .*kept\.db is a file, not a folder/);
    await refused(['export-graph', '--graph', db, '--model', 'page', '--format', 'metis', '--out', join(dir, 'nowhere', 'g.metis')], /--out: the folder .*nowhere does not exist/);
    await refused(['merge', parts, '--out', join(dir, 'nowhere', 'm.db')], /--out: the folder .*nowhere does not exist/);
    await refused(['compare', db, other, '--out', join(db, 'tables')], /--out: .*kept\.db is a file, not a folder/);
    // Before: Node's recursive mkdir spun at full CPU for ever under /proc, after the comparison.
    await refused(['compare', db, other, '--quiet', '--out', '/proc/crawlbench-tables'], /--out: cannot make \/proc\/crawlbench-tables \(ENOENT\)/);
    // Before: an empty --r read as 0.
    await refused(['simulate', '--graph', db, '--policy', 'all', '--r', ''], /--r: /);
    // Before: refused only after the whole simulation or partitioning (its progress lines first).
    await refused(['simulate', '--graph', db, '--policy', 'all', '--csv', join(dir, 'nowhere', 'c.csv')], /--csv: the folder .*nowhere does not exist/);
    await refused(['partition', '--graph', db, '--model', 'page', '--parts', '2', '--csv', other], /--csv: .*other\.db is a SQLite database/);
    // Both crawls are whole: read as crawls still.
    for (const f of [db, other]) expect((await cli(['rank', f, '--json'])).code).toBe(0);
  });

  it('takes each --seed whole, commas and all (before: split at its commas, "2" then refused as a seed)', async () => {
    const db = join(dir, 'comma.db');
    const seed = `http://a.demo:${port}/?ids=1,2`;
    const r = await cli(['crawl', '--db', db, '--seed', seed, ...base, '--max-pages', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sqlRows<{ url: string }>(db, 'SELECT url FROM pages WHERE depth = 0').map((p) => p.url)).toEqual([seed]);
  });

  it('stops at --max-pages, refuses conflicting flags on resume, and resumes with a larger limit', async () => {
    const db = join(dir, 'limited.db');
    let r = await cli(['crawl', '--db', db, '--seed', `http://a.demo:${port}/`, ...base, '--max-pages', '2', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ pagesFetched: 2, stopReason: 'max-pages' });
    const conflict = await expectBadInput(['crawl', '--db', db, '--w', '1s', '--quiet'], /other settings for w/);
    expect(conflict.stdout).toBe('');
    r = await cli(['crawl', '--db', db, '--max-pages', '100', '--quiet', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ pagesFetched: 5, stopReason: 'finished' });
  });
});
