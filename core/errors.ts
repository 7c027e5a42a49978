/**
 * Every error the engine reports carries a stable code. Codes are part of the public
 * contract: they are stored in the crawl database (pages.error_code, sites.parked_reason),
 * printed by the CLI and sent across IPC as {name, code, message}. Never rename one.
 */
export const ErrorCodes = {
  // Bad input from the user (CLI exit code 2).
  BAD_OPTION: 'CRAWL_BAD_OPTION',
  BAD_SEED: 'CRAWL_BAD_SEED',
  SEED_OUT_OF_SCOPE: 'CRAWL_SEED_OUT_OF_SCOPE',
  SEED_FILE_UNREADABLE: 'CRAWL_SEED_FILE_UNREADABLE',
  SETTINGS_CONFLICT: 'CRAWL_SETTINGS_CONFLICT',
  /** w below 1 s for a crawl that reaches hosts outside this machine, not confirmed (--allow-short-w). */
  SHORT_W: 'CRAWL_SHORT_W_UNCONFIRMED',
  /** Resuming a crawl the user stopped for good. */
  CRAWL_STOPPED: 'CRAWL_STOPPED',
  /** A simulator graph source that is neither a dataset folder nor a crawl database, or is malformed. */
  BAD_GRAPH: 'CRAWL_BAD_GRAPH',
  /** A graph to partition or export that has no link between two pages (nothing to cut). */
  GRAPH_NO_LINKS: 'CRAWL_GRAPH_NO_LINKS',
  /** An output file that exists, written over only when asked (--force). */
  OUTPUT_EXISTS: 'CRAWL_OUTPUT_EXISTS',
  /** A part vector (one part per line) of the wrong length or with a part outside 0..K-1. */
  BAD_PART_FILE: 'CRAWL_BAD_PART_FILE',
  /** An external program (gpmetis, KaHyPar) that is not installed or not where it was said to be. */
  TOOL_MISSING: 'CRAWL_TOOL_MISSING',
  /** An external program that ran and failed (its exit status and last output in the message). */
  TOOL_FAILED: 'CRAWL_TOOL_FAILED',
  /** A long job the user cancelled. */
  CANCELLED: 'CRAWL_CANCELLED',
  /** A WARC export of a crawl that stored no content (crawled without --store-content). */
  EXPORT_NO_CONTENT: 'CRAWL_EXPORT_NO_CONTENT',
  /** A parallel crawl's broker outside loopback without credentials. */
  BROKER_NO_CREDENTIALS: 'CRAWL_BROKER_NO_CREDENTIALS',
  /** A parallel crawl's broker that does not answer. */
  BROKER_UNREACHABLE: 'CRAWL_BROKER_UNREACHABLE',
  /** A parallel crawl started while its coordinator still runs (the broker holds its definition). */
  PARALLEL_CRAWL_RUNNING: 'CRAWL_PARALLEL_CRAWL_RUNNING',
  /** A worker asked for a crawl the broker does not hold, or for a part outside 0..K-1. */
  PARALLEL_UNKNOWN_CRAWL: 'CRAWL_PARALLEL_UNKNOWN_CRAWL',
  /** What the broker holds of a parallel crawl (its definition, its part vector) is not what crawlbench writes there. */
  PARALLEL_BAD_DEFINITION: 'CRAWL_PARALLEL_BAD_DEFINITION',
  /** A worker of a parallel crawl refused what it was given (exit 2: its part file, the definition): the crawl paused. */
  PARALLEL_WORKER_REFUSED: 'CRAWL_PARALLEL_WORKER_REFUSED',
  /** A worker's lease on a site (politeness across workers) was taken by another: its session stops. */
  LEASE_LOST: 'CRAWL_LEASE_LOST',
  // Database problems (never overwrite the file).
  DB_CORRUPT: 'CRAWL_DB_CORRUPT',
  DB_LOCKED: 'CRAWL_DB_LOCKED',
  /** A crawl file of an earlier crawlbench's schema, being brought up to this one's in a process of its own: read it once that is done. */
  DB_UPGRADING: 'CRAWL_DB_UPGRADING',
  DB_TOO_NEW: 'CRAWL_DB_TOO_NEW',
  DB_NOT_A_CRAWL: 'CRAWL_DB_NOT_A_CRAWL',
  DB_MISSING: 'CRAWL_DB_MISSING',
  DISK_FULL: 'CRAWL_DISK_FULL',
  // Per-page fetch outcomes (stored on the page).
  FETCH_TIMEOUT: 'CRAWL_FETCH_TIMEOUT',
  CONNECT_TIMEOUT: 'CRAWL_CONNECT_TIMEOUT',
  HEADERS_TIMEOUT: 'CRAWL_HEADERS_TIMEOUT',
  BODY_TIMEOUT: 'CRAWL_BODY_TIMEOUT',
  CONNECT_REFUSED: 'CRAWL_CONNECT_REFUSED',
  CONNECTION_RESET: 'CRAWL_CONNECTION_RESET',
  DNS_FAILURE: 'CRAWL_DNS_FAILURE',
  BODY_TOO_LARGE: 'CRAWL_BODY_TOO_LARGE',
  DECODED_TOO_LARGE: 'CRAWL_DECODED_TOO_LARGE',
  BAD_ENCODING: 'CRAWL_BAD_CONTENT_ENCODING',
  HTTP_4XX: 'CRAWL_HTTP_4XX',
  HTTP_5XX: 'CRAWL_HTTP_5XX',
  HTTP_429: 'CRAWL_HTTP_429',
  /** 304 Not Modified to a request that asked nothing conditional: an error, not a page. */
  HTTP_304_UNASKED: 'CRAWL_HTTP_304_UNASKED',
  TOO_MANY_REDIRECTS: 'CRAWL_TOO_MANY_REDIRECTS',
  ROBOTS_DISALLOWED: 'CRAWL_ROBOTS_DISALLOWED',
  // TLS (stored on the page under --tls verify, or a failed handshake in either mode; and as
  // the site's certificate state, sites.tls). The certificate's: expired or not yet valid;
  // not issued by a trusted authority (self-signed, unknown issuer, a chain past the verify
  // depth); not issued for the host. The handshake's: refused or broken (an alert, a reset,
  // a message past OpenSSL's limits, no common protocol); not done within the connect timeout.
  TLS_EXPIRED: 'CRAWL_TLS_EXPIRED',
  TLS_UNTRUSTED: 'CRAWL_TLS_UNTRUSTED',
  TLS_WRONG_NAME: 'CRAWL_TLS_WRONG_NAME',
  TLS_HANDSHAKE_FAILED: 'CRAWL_TLS_HANDSHAKE_FAILED',
  TLS_HANDSHAKE_TIMEOUT: 'CRAWL_TLS_HANDSHAKE_TIMEOUT',
  // Limits that stop traps (stored on skipped pages).
  TRAP_DEPTH: 'CRAWL_TRAP_DEPTH',
  TRAP_DYNAMIC_DEPTH: 'CRAWL_TRAP_DYNAMIC_DEPTH',
  TRAP_SITE_CAP: 'CRAWL_TRAP_SITE_CAP',
  URL_TOO_LONG: 'CRAWL_URL_TOO_LONG',
  // Site-level outcomes.
  SITE_PARKED: 'CRAWL_SITE_PARKED',
  ROBOTS_UNAVAILABLE: 'CRAWL_ROBOTS_UNAVAILABLE',
  // Sitemaps (--sitemaps; stored with the sitemap, and on its page when it answered).
  /** Not well-formed XML, or XML that is not a sitemap (its root neither <urlset> nor <sitemapindex>). */
  SITEMAP_MALFORMED: 'CRAWL_SITEMAP_MALFORMED',
  /** Over the protocol's limits: more than 50,000 entries or 50 MB decoded (what came before is kept). */
  SITEMAP_TOO_LARGE: 'CRAWL_SITEMAP_TOO_LARGE',
  /** An index that lists itself or an index above it. */
  SITEMAP_LOOP: 'CRAWL_SITEMAP_LOOP',
  /** Indexes nested deeper than crawlbench follows: the sitemaps below are not fetched. */
  SITEMAP_TOO_DEEP: 'CRAWL_SITEMAP_TOO_DEEP',
  /** Said to be gzip (a .gz name, a gzip type) and neither gzip nor XML, or a corrupt gzip stream. */
  SITEMAP_NOT_GZIP: 'CRAWL_SITEMAP_NOT_GZIP',
  /** A sitemap listed in robots.txt or an index that answered 4xx or 5xx, or no answer, after its attempts. */
  SITEMAP_UNAVAILABLE: 'CRAWL_SITEMAP_UNAVAILABLE',
  /** The site's sitemaps reached the cap on sitemap files or entries per site: the rest is not read. */
  SITEMAP_SITE_CAP: 'CRAWL_SITEMAP_SITE_CAP',
  INTERNAL: 'CRAWL_INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Codes that describe the user's input: the CLI exits 2 on them. */
const USER_ERRORS = new Set<ErrorCode>([
  ErrorCodes.BAD_OPTION,
  ErrorCodes.BAD_SEED,
  ErrorCodes.SEED_OUT_OF_SCOPE,
  ErrorCodes.SEED_FILE_UNREADABLE,
  ErrorCodes.SETTINGS_CONFLICT,
  ErrorCodes.SHORT_W,
  ErrorCodes.CRAWL_STOPPED,
  ErrorCodes.BAD_GRAPH,
  ErrorCodes.GRAPH_NO_LINKS,
  ErrorCodes.OUTPUT_EXISTS,
  ErrorCodes.BAD_PART_FILE,
  ErrorCodes.TOOL_MISSING,
  ErrorCodes.BROKER_NO_CREDENTIALS,
  ErrorCodes.BROKER_UNREACHABLE,
  ErrorCodes.PARALLEL_CRAWL_RUNNING,
  ErrorCodes.PARALLEL_UNKNOWN_CRAWL,
  ErrorCodes.PARALLEL_BAD_DEFINITION,
  ErrorCodes.PARALLEL_WORKER_REFUSED,
  ErrorCodes.EXPORT_NO_CONTENT,
  ErrorCodes.DB_CORRUPT,
  ErrorCodes.DB_LOCKED,
  ErrorCodes.DB_UPGRADING,
  ErrorCodes.DB_TOO_NEW,
  ErrorCodes.DB_NOT_A_CRAWL,
  ErrorCodes.DB_MISSING,
]);

/** Fetch failures worth retrying later with backoff (the server or network may recover). */
const RETRYABLE = new Set<ErrorCode>([
  ErrorCodes.FETCH_TIMEOUT,
  ErrorCodes.CONNECT_TIMEOUT,
  ErrorCodes.HEADERS_TIMEOUT,
  ErrorCodes.BODY_TIMEOUT,
  ErrorCodes.CONNECT_REFUSED,
  ErrorCodes.CONNECTION_RESET,
  ErrorCodes.DNS_FAILURE,
  ErrorCodes.HTTP_5XX,
  ErrorCodes.HTTP_429,
  ErrorCodes.TLS_HANDSHAKE_TIMEOUT,
]);

/**
 * The TLS codes. A certificate's problem does not go away in a retry, nor does a refused
 * handshake: only the timeout is retried.
 */
export const TLS_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  ErrorCodes.TLS_EXPIRED,
  ErrorCodes.TLS_UNTRUSTED,
  ErrorCodes.TLS_WRONG_NAME,
  ErrorCodes.TLS_HANDSHAKE_FAILED,
  ErrorCodes.TLS_HANDSHAKE_TIMEOUT,
]);

export class CrawlError extends Error {
  override readonly name = 'CrawlError';
  /**
   * The setting or request field the error is about ('w', 'maxDepth', 'policyParams.alpha'),
   * so that a form can show it at the field and the CLI can name its flag instead.
   */
  readonly field?: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; field?: string },
  ) {
    super(message, options);
    if (options?.field !== undefined) this.field = options.field;
  }
  get isUserError(): boolean {
    return USER_ERRORS.has(this.code);
  }
  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }
  toJSON(): { name: string; code: ErrorCode; message: string; field?: string } {
    return { name: this.name, code: this.code, message: this.message, ...(this.field === undefined ? {} : { field: this.field }) };
  }
}

/** A write that failed for lack of room: the disk (or SQLite's page budget, --max-db-size) is full. */
/** The exit code of a command that paused because its disk (or --max-db-size) was full: crawl, a parallel crawl's coordinator and its workers. */
export const DISK_FULL_EXIT = 3;

/** A hard link refused because the file system has none (FAT, some network shares): the caller falls back to a check and a rename or a plain create. */
export function noHardLinks(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS';
}

export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' || code === 'ENOSPC';
}

/**
 * SQLite's error for a crawl file damaged past its header (it opened, then a page read was
 * malformed), said as the corrupt file it is, or null: the CLI and the server (rpc-server.ts)
 * answer it so rather than as an internal error with a stack trace.
 */
export function sqliteFileError(err: unknown): CrawlError | null {
  const code = (err as { code?: unknown } | null)?.code;
  // better-sqlite3 gives the extended codes too (SQLITE_CORRUPT_INDEX, ...).
  if (typeof code !== 'string' || !(code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')) return null;
  return new CrawlError(ErrorCodes.DB_CORRUPT, `a crawl file is corrupt (${(err as Error).message}); it was left as it is`, { cause: err });
}

export function isRetryable(code: string): boolean {
  return RETRYABLE.has(code as ErrorCode);
}

export function badOption(option: string, problem: string): CrawlError {
  return new CrawlError(ErrorCodes.BAD_OPTION, `${option}: ${problem}`);
}

/**
 * A bad value of a crawl setting or request field, in words that suit both a form and the
 * CLI: the message is `field: problem`, and the CLI swaps the field for its flag.
 */
export function badField(field: string, problem: string): CrawlError {
  return new CrawlError(ErrorCodes.BAD_OPTION, `${field}: ${problem}`, { field });
}

/** Reasons a known page is not fetched that are not failures (stored in pages.error_code). */
export const SkipCodes = {
  NOFOLLOW: 'CRAWL_SKIPPED_NOFOLLOW',
  MAX_PAGES: 'CRAWL_SKIPPED_MAX_PAGES',
  /** A parallel crawl's worker: the page is another part's (sent to its owner; the merge keeps the owner's row). */
  OTHER_PART: 'CRAWL_SKIPPED_OTHER_PART',
} as const;

/** A text as a message shows it: cut to `max` characters, marked with an ellipsis (a 10 MB line was echoed whole in a refusal). */
export function clipped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
