import robotsParserModule from 'robots-parser';
import { robotsMatchForm } from './match-form.js';
import { agentToken, rewriteRobots } from './rewrite.js';

/**
 * The rules of one robots.txt (one origin: scheme + host + port, docs/design.md section 2.2)
 * for our user agent, per RFC 9309.
 *
 * robots-parser does the rule storage and the matching (Google's algorithm: '*' and a
 * final '$', longest pattern wins, Allow wins a tie). Where it departs from the RFC, the
 * body is rewritten before it sees it (rewrite.ts lists those fixes) and paths are put in
 * the same percent-encoding form as the patterns (match-form.ts). In addition:
 * - '/robots.txt' is always allowed (§2.2.2);
 * - the group is chosen by our product token, case-insensitively; '*' only when no group
 *   names the token (§2.2.1);
 * - Crawl-delay (not in the RFC; widely used) comes from the chosen group only.
 *
 * Only the path and query of a URL are matched: the caller picks the rules of the URL's
 * origin. Nothing is serialised: the crawler stores the raw body and parses it again.
 */

/** robots-parser checks that URLs share the robots.txt origin; we give it one fixed origin. */
const ORIGIN = 'http://robots.invalid';

interface Matcher {
  isAllowed(url: string, ua?: string): boolean | undefined;
}

// robots-parser is CommonJS (`module.exports = function`); its typings declare an ES
// default export, which TypeScript under NodeNext does not see as callable.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Matcher;

/** 'crawlbench/0.1 (+https://example.org/bot)' -> 'crawlbench' (RFC 9309 §2.2.1: [A-Za-z_-]+). */
export function productToken(userAgent: string): string {
  const m = /^[A-Za-z_-]+/.exec(userAgent.trim());
  return m === null ? '' : m[0];
}

export class RobotsRules {
  private constructor(
    /** null: allow or disallow everything, without a robots.txt. */
    private readonly matcher: Matcher | null,
    private readonly everything: boolean,
    /** Lower-case product token, or '*' when our agent has no group of its own. */
    private readonly group: string,
    private readonly crawlDelay: number | undefined,
  ) {}

  /** Rules for `userAgent` (a full User-Agent header or just its product token). */
  static parse(robotsUrl: string, body: string, userAgent: string): RobotsRules {
    void robotsUrl; // the origin is the caller's business (see the class comment)
    const { text, agents, crawlDelays } = rewriteRobots(body);
    const token = agentToken(productToken(userAgent));
    const group = token !== '' && agents.has(token) ? token : '*';
    const matcher = robotsParser(`${ORIGIN}/robots.txt`, text);
    return new RobotsRules(matcher, true, group, crawlDelays.get(group));
  }

  /** robots.txt answered 4xx: no restrictions (RFC 9309 §2.3.1.3). */
  static allowAll(): RobotsRules {
    return new RobotsRules(null, true, '*', undefined);
  }

  /** robots.txt unreachable or 5xx: assume complete disallow until it can be read (§2.3.1.4). */
  static disallowAll(): RobotsRules {
    return new RobotsRules(null, false, '*', undefined);
  }

  isAllowed(url: string): boolean {
    let pathname: string;
    let search: string;
    try {
      const u = new URL(url);
      pathname = u.pathname;
      search = u.search;
    } catch {
      return false;
    }
    if (pathname === '/robots.txt') return true;
    if (this.matcher === null) return this.everything;
    // A group we do not have makes robots-parser fall back to '*', as wanted.
    const allowed = this.matcher.isAllowed(ORIGIN + robotsMatchForm(pathname + search, 'path'), this.group);
    return allowed !== false;
  }

  /** Crawl-delay of our group, in seconds, if it set a valid one. */
  crawlDelaySeconds(): number | undefined {
    return this.crawlDelay;
  }
}
