/**
 * The sane range of every numeric crawl setting, in the settings' own units (durations in
 * milliseconds, sizes in bytes). The settings schema enforces them and the New crawl form
 * checks against the same table before it sends anything, so the two cannot disagree.
 * Browser-safe: no imports.
 */
export type LimitKind = 'duration' | 'count' | 'size';

export interface NumericLimit {
  min: number;
  max: number;
  integer: boolean;
  kind: LimitKind;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GiB = 1024 ** 3;

const duration = (min: number, max: number): NumericLimit => ({ min, max, integer: false, kind: 'duration' });
const count = (min: number, max: number): NumericLimit => ({ min, max, integer: true, kind: 'count' });
const size = (min: number, max: number): NumericLimit => ({ min, max, integer: true, kind: 'size' });

export const SETTING_LIMITS = {
  w: duration(0, HOUR),
  c: count(1, 10_000),
  r: count(1, 10_000),
  keepaliveGap: duration(0, HOUR),
  pipeliningDepth: count(1, 1000),
  batch: count(1, 1_000_000_000),
  // Page ids and counts are SQLite integers and JavaScript numbers: a trillion is far inside both.
  maxPages: count(1, 1_000_000_000_000),
  maxDepth: count(0, 1000),
  maxDynamicDepth: count(0, 1000),
  maxPagesPerSite: count(1, 1_000_000_000),
  maxRedirects: count(0, 100),
  maxUrlLength: count(64, 65_536),
  connectTimeout: duration(1, HOUR),
  headersTimeout: duration(1, HOUR),
  bodyTimeout: duration(1, HOUR),
  requestTimeout: duration(1, DAY),
  maxBodyBytes: size(1024, 4 * GiB),
  maxDecodedBytes: size(1024, 8 * GiB),
  maxAttempts: count(1, 100),
  retryBase: duration(0, DAY),
  siteErrorBudget: count(1, 1_000_000),
  robotsRetry: duration(0, DAY),
  maxCrawlDelay: duration(0, DAY),
  robotsMaxAttempts: count(1, 100),
  // The simulator's (a model: any rate, bytes/s).
  bandwidth: size(1, 1_000_000_000_000),
  // The crawler's: at least a piece of a response (64 KiB, undici's largest) a second. Below
  // that one piece's wait for the cap lasted minutes (100 bytes/s: 11 minutes), and a crawl
  // asked to pause waited for it: Ctrl-C and SIGTERM seemed ignored.
  crawlBandwidth: size(65_536, 1_000_000_000_000),
  contentBudget: size(0, 2 ** 50),
  maxDbSize: size(0, 2 ** 50),
} as const satisfies Record<string, NumericLimit>;

export type LimitedSetting = keyof typeof SETTING_LIMITS;

/**
 * A w below this, for a crawl that reaches hosts outside this machine, must be confirmed:
 * that is how a careless crawl of real servers starts (docs/design.md section 2.3: w is seconds).
 */
export const SHORT_W_MS = 1000;

/**
 * 10000 -> "10,000", by hand: these messages are built when the settings schema loads, and
 * toLocaleString would load ICU's locale data into every process (7 MiB of RSS).
 */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function amount(value: number, kind: LimitKind): string {
  if (kind === 'duration') {
    if (value >= DAY && value % DAY === 0) return `${value / DAY} day${value === DAY ? '' : 's'}`;
    if (value >= HOUR && value % HOUR === 0) return `${value / HOUR} hour${value === HOUR ? '' : 's'}`;
    if (value >= 1000) return `${value / 1000} s`;
    return `${value} ms`;
  }
  if (kind === 'size') {
    for (const [unit, n] of [['TiB', 1024 ** 4], ['GiB', GiB], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
      if (value >= n && value % n === 0) return `${value / n} ${unit}`;
    }
    return `${grouped(value)} bytes`;
  }
  return grouped(value);
}

/** "must be a whole number from 1 to 10,000" and the like: the problem, without the field's name. */
export function limitProblem(limit: NumericLimit): string {
  const what = limit.integer && limit.kind === 'count' ? 'a whole number' : limit.kind === 'duration' ? 'a duration' : limit.kind === 'size' ? 'a size' : 'a number';
  return `must be ${what} from ${amount(limit.min, limit.kind)} to ${amount(limit.max, limit.kind)}`;
}

/** Whether `value` is a number inside the limit (finite, in range, whole where it must be). */
export function withinLimit(value: unknown, limit: NumericLimit): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= limit.min && value <= limit.max && (!limit.integer || Number.isInteger(value));
}
