/**
 * Understands the seed box (or an imported seed file). Seeds are what they look like:
 *
 * - one entry per line (or several on a line separated by commas); `#` starts a comment;
 *   blank lines are skipped. Spaces never separate entries: a line that is not entirely
 *   made of good entries is ONE problem for that line, and adds none of its entries.
 * - an entry is a URL (http/https), a host name (crawled from its home page), or a
 *   domain suffix starting with a dot (".cl": every host under it is in scope).
 * - a host name has a dot (`www.uchile.cl`), or is `localhost`, or is an IP address
 *   (`127.0.0.1`; `[::1]`), with an optional port 1..65535. The same rule holds for the
 *   host of a URL: `http://intranet/` is refused like `intranet` is.
 * - host names and suffixes come out as the WHATWG URL parser spells them (lower case,
 *   punycode for IDN: `www.ñandú.cl` -> `www.xn--and-6ma2c.cl`, trailing dot dropped);
 *   URLs as canonicalize() spells them.
 * - control and other invisible characters make their line a problem; a line with NUL bytes,
 *   U+FFFD (bytes that were not UTF-8) or several control characters holds binary data and is
 *   marked so, alone: the good lines around it are read. A text whose lines are mostly binary is
 *   a binary file, and none of it is read as seeds.
 *
 * Every problem carries its line number; the list is capped (MAX_PROBLEMS) and
 * `problemCount` gives the total.
 */
import type { ParsedSeeds } from './contract.js';
import { canonicalize } from '../url/canonical.js';
import { clipped } from '../errors.js';

/** Problems listed in full; beyond this only problemCount grows (a pasted binary file). */
export const MAX_PROBLEMS = 1000;
/** Seed text read on the server's thread (about 50 ms); a longer one is read in a worker thread. */
export const INLINE_SEED_CHARS = 256 * 1024;
/** A problem's text is cut to this many characters. */
const MAX_TEXT = 200;

/** A line or entry as a problem names it: a 10 MB line was echoed whole in a refusal. */
function shown(t: string): string {
  return clipped(t, MAX_TEXT);
}

const NOT_A_SEED = 'not a URL, host name (www.example.cl) or domain suffix (.cl)';
/** C0/C1 controls (tab is whitespace), DEL, and invisible format characters (U+200B, U+00AD, BOM...). */
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\p{Cf}]/u;
/** What a host name (before punycode) is made of: letters, marks, digits, `_`, `-`, dots. */
const HOST_CHARS = /^[\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)*$/u;
/** One ASCII label as the URL parser leaves it (underscores occur in real host names). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
/**
 * A top-level domain as typed: a letter, then letters, marks, digits and hyphens (with
 * readHostName's check that it does not end in a hyphen). One flat class, linear in the
 * text: the nested `(?:-*[...]+)*` it replaces backtracked 2^n times on `www.aaa…a_`.
 */
const TLD_CHARS = /^\p{L}[\p{L}\p{M}\p{N}-]*$/u;
/** `scheme:` at the start of an entry (but see isUrlLike: `x.cl:80` is a host and port). */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

type Entry = { kind: 'urls' | 'hosts' | 'suffixes'; value: string };

export function parseSeeds(text: string): ParsedSeeds {
  const out: Required<ParsedSeeds> = { urls: [], hosts: [], suffixes: [], problems: [], problemCount: 0 };
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).map((raw) => raw.replace(/#.*$/, '').trim());
  const binary = lines.map((line) => line !== '' && isBinary(line));
  // Mostly binary lines: a binary file, whose short runs of letters and dots between them must
  // not become hosts (`é.ñ` is a valid IDN): none of it is read. Otherwise each line stands alone.
  const binaryLines = binary.filter(Boolean).length;
  const binaryFile = binaryLines * 2 > lines.filter((l) => l !== '').length;
  lines.forEach((line, i) => {
    if (line === '') return;
    const read = binary[i] ? BINARY : binaryFile ? IN_BINARY_FILE : readLine(line);
    if (typeof read === 'string') {
      out.problemCount++;
      if (out.problems.length < MAX_PROBLEMS) {
        out.problems.push({ line: i + 1, text: shown(line), problem: read });
      }
      return;
    }
    for (const { kind, value } of read) {
      // A Set, not includes(): an imported seed file can have a million lines.
      if (seen.has(`${kind} ${value}`)) continue;
      seen.add(`${kind} ${value}`);
      out[kind].push(value);
    }
  });
  return out;
}

/**
 * A line holding binary data: NUL bytes, U+FFFD (bytes that were not UTF-8) or several control
 * characters. A stray control character in a line of text gets its own message (controlProblem).
 */
function isBinary(line: string): boolean {
  if (/[\u0000\uFFFD]/.test(line)) return true;
  const controls = line.match(/[\u0001-\u0008\u000E-\u001F\u007F-\u009F]/g)?.length ?? 0;
  return controls >= 2;
}

const BINARY = 'this line holds binary data (NUL bytes, control characters or bytes that are not text): none of it is read as seeds';
const IN_BINARY_FILE = 'most lines of this text hold binary data (is it a binary file?): none of it is read as seeds';

function controlProblem(line: string): string | null {
  const m = CONTROL.exec(line);
  if (!m) return null;
  const code = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `contains an invisible or control character (U+${code}) at column ${m.index + 1}; is this binary data?`;
}

/** The line's entries, or its problem. */
function readLine(line: string): Entry[] | string {
  const control = controlProblem(line);
  if (control) return control;
  const pieces = line.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const read = pieces.map(readEntry);
  const bad = read.findIndex((r) => typeof r === 'string');
  if (bad < 0) return read as Entry[];
  if (pieces.length === 1) return read[0] as string;
  // A URL's path or query may contain commas: `http://x.cl/a,b` is that one URL.
  if (isUrlLike(line)) {
    const whole = readEntry(line);
    if (typeof whole !== 'string') return [whole];
  }
  return `“${shown(pieces[bad]!)}”: ${read[bad] as string}`;
}

function isUrlLike(t: string): boolean {
  const m = SCHEME.exec(t);
  if (!m) return false;
  if (t.startsWith('//', m[0].length)) return true;
  // `localhost:8080`, `x.cl:0`, `abc:123`: a host and a port, not a scheme.
  return !m[1]!.includes('.') && m[1]!.toLowerCase() !== 'localhost' && !/^\d*(?:[/?#]|$)/.test(t.slice(m[0].length));
}

function readEntry(t: string): Entry | string {
  if (/\s/.test(t)) return spaceProblem(t);
  if (isUrlLike(t)) return readUrl(t);
  if (t.startsWith('.')) return readSuffix(t);
  const host = readHost(t, 'entry');
  return typeof host === 'string' ? host : { kind: 'hosts', value: host.host };
}

function spaceProblem(t: string): string {
  if (isUrlLike(t)) return 'a URL cannot contain spaces (write %20 for a space in a path)';
  const words = t.split(/\s+/);
  if (words.every((w) => typeof readEntry(w) !== 'string')) {
    return 'spaces do not separate entries: put one entry per line, or separate them with commas';
  }
  return NOT_A_SEED;
}

function readUrl(t: string): Entry | string {
  const scheme = SCHEME.exec(t)![1]!.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return 'only http and https URLs can be crawled';
  if (!t.startsWith('//', scheme.length + 1)) return `not a valid URL: it should start with ${shown(scheme)}://`;
  const authority = t.slice(scheme.length + 3).split(/[/?#\\]/, 1)[0]!;
  if (authority.includes('@')) return 'a URL with a user name (user@host) is not crawled: write the host only';
  if (authority === '') return 'a URL needs a host name (http://www.example.cl/)';
  const host = readHost(authority, 'url');
  if (typeof host === 'string') return host;
  const url = canonicalize(t);
  if (!url) return 'not a valid URL';
  return { kind: 'urls', value: url };
}

/**
 * `name[:port]` as the URL parser spells it (`host`), or why it is not a host. `from`
 * says whether it stands alone in the seed box (a path then gets its own message).
 */
function readHost(t: string, from: 'entry' | 'url'): { host: string } | string {
  let name = t;
  let port = '';
  const v6 = /^(\[[^\]]*\])(?::(.*))?$/.exec(t);
  if (v6) {
    name = v6[1]!;
    port = v6[2] ?? '';
  } else {
    if (from === 'entry' && /[/?#\\]/.test(t)) {
      return 'a host name has no path: for a page, write its full URL (http://www.example.cl/page)';
    }
    const colon = t.indexOf(':');
    if (colon >= 0) {
      name = t.slice(0, colon);
      port = t.slice(colon + 1);
      if (port.includes(':')) return 'not a host name (an IPv6 address goes in a URL, in brackets: http://[::1]/)';
    }
  }
  if (port !== '' || t.endsWith(':')) {
    if (!/^\d{1,5}$/.test(port) || +port < 1 || +port > 65535) return 'a port is a number from 1 to 65535';
  }
  let hostname: string;
  if (v6) {
    try {
      hostname = new URL(`http://${name}/`).hostname;
    } catch {
      return 'not a valid IPv6 address';
    }
  } else {
    const read = readHostName(name);
    if (typeof read === 'string') return read;
    hostname = read.ascii;
    if (hostname !== 'localhost' && !hostname.includes('.')) {
      if (from === 'url') return 'the host name of a URL has a dot (www.example.cl) or is localhost';
      return `a host name has a dot (www.example.cl); to crawl every host under “${shown(hostname)}”, write the domain suffix .${shown(hostname)}`;
    }
  }
  // The URL parser drops a default port (http://x.cl:80/ is http://x.cl/).
  const u = new URL(`http://${hostname}${port ? `:${port}` : ''}/`);
  return { host: u.host };
}

/** A host name (or suffix without its dot) in lower-case ASCII, or why it is not one. */
function readHostName(name: string): { ascii: string } | string {
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  if (n === '') return 'a host name is missing';
  if (!HOST_CHARS.test(n)) return NOT_A_SEED;
  const labels = n.split('.');
  if (labels.every((l) => /^\d+$/.test(l))) {
    // The URL parser reads `1.2`, `999` or `010.1.1.1` as other addresses: only plain dotted quads.
    if (labels.length === 4 && labels.every((l) => /^(?:0|[1-9]\d{0,2})$/.test(l) && +l <= 255)) return { ascii: n };
    return 'not an IP address: write four numbers from 0 to 255 (127.0.0.1)';
  }
  // Every top-level domain is letters (or punycode), two or more: `a.1`, `x.y_` or `.a` are not names.
  const tld = labels[labels.length - 1]!;
  if (!TLD_CHARS.test(tld) || tld.endsWith('-') || [...tld].length < 2) {
    return 'not a host name: it must end in a top-level domain of letters (.cl, .com)';
  }
  let ascii: string;
  try {
    ascii = new URL(`http://${n}/`).hostname;
  } catch {
    return 'not a valid host name';
  }
  const out = ascii.split('.');
  if (ascii.length > 253 || out.length !== labels.length || !out.every((l) => LABEL.test(l))) return 'not a valid host name';
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{2,59})$/.test(out[out.length - 1]!)) {
    return 'not a host name: it must end in a top-level domain of letters (.cl, .com)';
  }
  return { ascii };
}

function readSuffix(t: string): Entry | string {
  const s = t.slice(1);
  if (s === '' || s === '.') return 'a domain suffix needs a name after the dot (.cl)';
  if (/[:/?#\\]/.test(s)) return 'a domain suffix is a name after a dot (.cl, .uchile.cl), with no port or path';
  const read = readHostName(s);
  if (typeof read === 'string' || /^\d+$/.test(read.ascii.slice(read.ascii.lastIndexOf('.') + 1))) {
    return 'not a valid domain suffix (.cl, .uchile.cl)';
  }
  return { kind: 'suffixes', value: `.${read.ascii}` };
}

/** Seeds and scope for the crawl settings: host entries start at their home page. */
export function seedSettings(p: ParsedSeeds): { seeds: string[]; scope?: { suffixes: string[]; hosts: string[] } } {
  const seeds = [...p.urls, ...p.hosts.map((h) => `http://${h}/`)];
  if (p.suffixes.length === 0) return { seeds };
  // With suffixes the scope is explicit: keep the seeds' own hosts in it too.
  const hosts = [...new Set(seeds.map((s) => new URL(s).hostname))];
  return { seeds, scope: { suffixes: p.suffixes, hosts } };
}
