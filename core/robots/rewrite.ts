import { robotsMatchForm } from './match-form.js';

/**
 * Rewrites a robots.txt into the subset of the format that robots-parser reads exactly as
 * RFC 9309 means it, and extracts what it gets wrong (crawl-delay, the names of groups).
 * robots-parser then only stores rules per agent and matches them (Google's algorithm).
 *
 * What the rewrite fixes, line by line:
 * - Only the first 500 KiB are read (§2.5); a line cut by that limit is dropped, since
 *   `Disallow: /private` cut to `Disallow: /` would say something else.
 * - A leading BOM is dropped; CRLF, CR and LF all end lines.
 * - A line without ':' is read as Google's parser reads it (robots.cc): if, once the
 *   comment is cut and the line trimmed, it is exactly two runs of non-blank characters
 *   separated by spaces or tabs (`disallow /x`, `user-agent FooBot`, `crawl-delay 5`), they
 *   are the key and the value; any other line without ':' is ignored. robots-parser only
 *   knows ':', so such a line is passed on with one.
 * - `User-agent` values become product tokens ([A-Za-z_-]+ prefix, lower-case, §2.2.1):
 *   `CrawlBench/2.0 (+url)` names the group `crawlbench`; robots-parser only cut at '/'.
 * - Allow/Disallow patterns are put in robotsMatchForm (percent-encoding-insensitive).
 * - A run of User-agent lines ends only at a line that belongs to a group (Allow,
 *   Disallow, and Crawl-delay, which webmasters write as a group member). A Sitemap or
 *   unknown line between two User-agent lines no longer splits one group into two
 *   (robots-parser ended the run on any key; Google's parser does not). Sitemap and
 *   unknown lines are not passed on; Crawl-delay is read here.
 * - Every run of User-agent lines is followed by an empty `Disallow:`: robots-parser only
 *   registers an agent when a line below it names it, so a group without rules (RFC 9309
 *   §5.1's `User-Agent: quxbot` at the end of the file) was invisible and the agent fell
 *   back to `*`. RFC 9309: a group that names you is yours, even when it allows all.
 * - Crawl-delay: an empty or negative value is ignored (robots-parser made '' a 0).
 */

export const MAX_ROBOTS_BYTES = 500 * 1024;

export interface RewrittenRobots {
  /** Input for robots-parser. */
  text: string;
  /** Every product token named by a User-agent line ('*' included). */
  agents: Set<string>;
  /** First valid Crawl-delay (seconds) of the merged groups of each agent. */
  crawlDelays: Map<string, number>;
}

/** The product token of a User-agent line value, lower-case; '*' for the catch-all; '' if none. */
export function agentToken(value: string): string {
  if (value.charCodeAt(0) === 42 /* * */) return '*';
  const m = /^[A-Za-z_-]+/.exec(value);
  return m === null ? '' : m[0].toLowerCase();
}

export function rewriteRobots(body: string): RewrittenRobots {
  const text = truncate(body);
  const out: string[] = [];
  const agents = new Set<string>();
  const crawlDelays = new Map<string, number>();
  let groupAgents: string[] = [];
  let inAgentRun = false;

  for (const line of text.split(/\r\n|\r|\n/)) {
    const hash = line.indexOf('#');
    const content = hash < 0 ? line : line.slice(0, hash);
    const kv = keyValue(content);
    if (kv === null) continue;
    const { key, value } = kv;
    switch (key) {
      case 'user-agent': {
        if (!inAgentRun) groupAgents = [];
        inAgentRun = true;
        const token = agentToken(value);
        // An empty value still starts the run (so that its rules bind to no one).
        out.push(`user-agent: ${token}`);
        if (token !== '') {
          groupAgents.push(token);
          agents.add(token);
        }
        break;
      }
      case 'allow':
      case 'disallow':
        if (inAgentRun) {
          out.push('disallow:');
          inAgentRun = false;
        }
        out.push(`${key}: ${robotsMatchForm(value, 'pattern')}`);
        break;
      case 'crawl-delay': {
        if (inAgentRun) {
          out.push('disallow:');
          inAgentRun = false;
        }
        const seconds = value === '' ? NaN : Number(value);
        if (!Number.isFinite(seconds) || seconds < 0) break;
        for (const a of groupAgents) if (!crawlDelays.has(a)) crawlDelays.set(a, seconds);
        break;
      }
      default:
        break; // sitemap, host, unknown keys: not part of the group structure
    }
  }
  if (inAgentRun) out.push('disallow:');
  return { text: out.join('\n'), agents, crawlDelays };
}

/**
 * Key (lower-case) and value of a robots.txt line with its comment cut off; null if it has
 * neither a ':' nor exactly two whitespace-separated tokens (Google's ParseKeyValue).
 */
function keyValue(content: string): { key: string; value: string } | null {
  const sep = content.indexOf(':');
  if (sep < 0) {
    const m = /^([^ \t]+)[ \t]+([^ \t]+)$/.exec(content.trim());
    return m === null ? null : { key: m[1].toLowerCase(), value: m[2] };
  }
  return { key: content.slice(0, sep).trim().toLowerCase(), value: content.slice(sep + 1).trim() };
}

/** The first MAX_ROBOTS_BYTES of UTF-8, without a leading BOM or a trailing partial line. */
function truncate(body: string): string {
  if (body.charCodeAt(0) === 0xfeff) body = body.slice(1);
  // Cheap bound first: a UTF-16 unit is at most 3 UTF-8 bytes.
  if (body.length * 3 <= MAX_ROBOTS_BYTES || Buffer.byteLength(body, 'utf8') <= MAX_ROBOTS_BYTES) return body;
  const cut = Buffer.from(body, 'utf8').subarray(0, MAX_ROBOTS_BYTES).toString('utf8');
  const lastBreak = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf('\r'));
  return lastBreak < 0 ? '' : cut.slice(0, lastBreak);
}
