/**
 * robots.txt of each RobotsKind. 'agent-groups' is the trap for parsers that merge groups:
 * crawlbench has its own group (only /no-crawlbench/ is off limits), while the '*' group
 * forbids everything; a crawler that applies '*' to itself fetches nothing there.
 */
import type { SiteInfo } from './web.js';

export interface RobotsAnswer {
  status: number;
  body: string;
  location?: string;
}

export const ROBOTS_REAL_PATH = '/robots-real.txt';

const PRIVATE_RULES = 'User-agent: *\nDisallow: /private/\n';

export function robotsAnswer(site: SiteInfo, path: string): RobotsAnswer | undefined {
  if (site.robotsTxt !== undefined) {
    if (path !== '/robots.txt') return undefined;
    return typeof site.robotsTxt === 'string'
      ? { status: 200, body: site.robotsTxt }
      : { status: site.robotsTxt.status, body: `status ${site.robotsTxt.status}\n` };
  }
  if (path === ROBOTS_REAL_PATH) return site.robots === 'redirect' ? { status: 200, body: PRIVATE_RULES } : undefined;
  if (path !== '/robots.txt') return undefined;
  switch (site.robots) {
    case 'allow-all':
      return { status: 200, body: 'User-agent: *\nDisallow:\n' };
    case 'disallow-private':
      return { status: 200, body: PRIVATE_RULES };
    case 'not-found':
      return { status: 404, body: 'Not found\n' };
    case 'server-error':
      return { status: 500, body: 'Internal server error\n' };
    case 'crawl-delay':
      return { status: 200, body: 'User-agent: *\nCrawl-delay: 1\nDisallow:\n' };
    case 'agent-groups':
      return {
        status: 200,
        body: '# crawlbench has its own group; everyone else is shut out.\nUser-agent: crawlbench\nDisallow: /no-crawlbench/\n\nUser-agent: *\nDisallow: /\n',
      };
    case 'redirect':
      return { status: 301, body: '', location: ROBOTS_REAL_PATH };
  }
}
