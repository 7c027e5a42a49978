/**
 * Understands the seed box (or an imported seed file): one entry per line or comma, `#`
 * comments. An entry is a URL (http/https), a host name (crawled from its home page) or a
 * domain suffix starting with a dot (".cl": every host under it is in scope).
 */
import type { ParsedSeeds } from './contract.js';
import { canonicalize } from '../url/canonical.js';

const HOST = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*(:\d{1,5})?$/i;

export function parseSeeds(text: string): ParsedSeeds {
  const out: ParsedSeeds = { urls: [], hosts: [], suffixes: [], problems: [] };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    for (const part of raw.replace(/#.*$/, '').split(/[,\s]+/)) {
      const t = part.trim();
      if (!t) continue;
      const problem = addEntry(out, t);
      if (problem) out.problems.push({ line: i + 1, text: t, problem });
    }
  });
  return out;
}

function addEntry(out: ParsedSeeds, t: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) && !/^[^/]+:\d+$/.test(t)) {
    if (!/^https?:\/\//i.test(t)) return 'only http and https URLs can be crawled';
    const url = canonicalize(t);
    if (!url) return 'not a valid URL';
    if (!out.urls.includes(url)) out.urls.push(url);
    return null;
  }
  if (t.startsWith('.')) {
    const suffix = t.toLowerCase();
    if (!HOST.test(suffix.slice(1))) return 'not a valid domain suffix';
    if (!out.suffixes.includes(suffix)) out.suffixes.push(suffix);
    return null;
  }
  if (!HOST.test(t)) return 'neither a URL, a host name nor a domain suffix (.cl)';
  const host = t.toLowerCase();
  if (!out.hosts.includes(host)) out.hosts.push(host);
  return null;
}

/** Seeds and scope for the crawl settings: host entries start at their home page. */
export function seedSettings(p: ParsedSeeds): { seeds: string[]; scope?: { suffixes: string[]; hosts: string[] } } {
  const seeds = [...p.urls, ...p.hosts.map((h) => `http://${h}/`)];
  if (p.suffixes.length === 0) return { seeds };
  // With suffixes the scope is explicit: keep the seeds' own hosts in it too.
  const hosts = [...new Set(seeds.map((s) => new URL(s).hostname))];
  return { seeds, scope: { suffixes: p.suffixes, hosts } };
}
