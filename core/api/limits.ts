/**
 * What one request to the engine may carry, in one place (issue 23): the size of one message,
 * the shape of a call's arguments, seed text sent in one piece, and seed uploads (a seed file
 * too large for one message goes up in chunks, uploadSeeds, and is then named by its upload
 * id). The servers enforce them (ws-server.ts, browser-server.ts, rpc-server.ts, seed-uploads.ts,
 * create-request.ts, the last two through limit-schemas.ts) and the workbench checks them before it sends anything, so a request over a limit is refused
 * at its field in words, never by a dropped connection.
 *
 * Browser-safe, with no imports: the workbench bundles it, and so does Electron's preload
 * (through rpc-server.ts); the zod schemas built from these numbers are in limit-schemas.ts,
 * which would bring zod's 90 KB into the window.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export const API_LIMITS = {
  /**
   * One API message in bytes (UTF-8): a WebSocket frame (the whole message) or the body of
   * POST /api/call. A WebSocket message over it closes its own socket with 1009 and a reason
   * naming this limit; POST /api/call answers 413.
   */
  messageBytes: 4 * MiB,
  /**
   * The WebSocket server's own cap (ws maxPayload): a message declared larger is refused
   * unread, ws closes the socket with 1009 and no reason (the workbench still says which
   * limit, from the code). Between messageBytes and this, crawlbench reads the message and
   * closes with a reason.
   */
  hardMessageBytes: 16 * MiB,
  /**
   * What a WebSocket client may leave unread before its events (stats, progress: each one
   * superseded by the next) are skipped until it catches up: a tab that stops reading during a
   * week-long crawl would otherwise have every event of it queued in the server's memory.
   * Answers to its calls are always sent.
   */
  eventBacklogBytes: 4 * MiB,
  /**
   * Events the desktop window may have unread (it says what it read, every turn of its event
   * loop) before the next are skipped until it catches up: Electron's IPC queues without a bound,
   * so a window that hangs would otherwise have every event of a long crawl queued.
   */
  eventBacklogEvents: 1000,
  /** Arguments of one call. */
  callArgs: 8,
  /** Nesting of a call's arguments (arrays and objects inside one another). */
  argDepth: 64,
  /**
   * Any one string in a call's arguments, in characters: twice the longest a method takes (seed
   * text), so that the method itself can say which field is too long.
   */
  argStringChars: 1 * MiB,
  /** Any one list in a call's arguments. */
  argArrayItems: 100_000,
  /** A method name, in characters. */
  methodChars: 64,
  /**
   * Seed text sent in one piece (parseSeeds(text), createCrawl's seedText), in characters. JSON
   * spells a character in at most 6 bytes (\u0001), so it always fits one message; longer text
   * goes up in chunks (uploadSeeds).
   */
  seedTextChars: 512 * KiB,
  /** One chunk of uploadSeeds, in characters (in one message for the same reason). */
  seedChunkChars: 512 * KiB,
  /**
   * A whole seed upload, in characters: the largest seed file, far above any real seed list
   * (10 MB holds 230,000 URLs; reading 64 MiB of seeds takes about 8 s). A file is checked by
   * its size in bytes against the same number (a UTF-8 file has no more characters than bytes).
   */
  seedUploadChars: 64 * MiB,
  /** Seed uploads the engine holds at once (the oldest is dropped for a new one). */
  seedUploadsHeld: 4,
  /** A seed upload not touched for this long is dropped (import the file again). */
  seedUploadIdleMs: 30 * 60_000,
} as const;

/** 10000 -> "10,000" (by hand: toLocaleString would load ICU's locale data into the server). */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "4 MiB", "5.2 MiB", "900 KiB", "12 bytes". */
export function sizeInWords(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= KiB) return `${Number((bytes / KiB).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

/** The close reason of a message over the limit (at most 123 bytes, as WebSocket wants). */
export function tooLargeReason(bytes: number): string {
  return `a message of ${sizeInWords(bytes)} is over the ${sizeInWords(API_LIMITS.messageBytes)} limit of one API message`;
}

/**
 * Keys no argument may have: the names of Object.prototype's own properties. A key `toString`
 * or `valueOf` makes String(argument) throw; `__proto__` and `constructor` are how prototypes
 * get polluted. No request of the API has such a field.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

/**
 * What is wrong with a call's arguments as a whole (nesting, a string or list too long), in
 * words, or null. Walks without recursion: arguments nested a million deep must not overflow
 * the stack of the server that checks them.
 */
export function argumentsProblem(args: readonly unknown[]): string | null {
  if (args.length > API_LIMITS.callArgs) return `a call takes at most ${API_LIMITS.callArgs} arguments (this one has ${args.length})`;
  const stack: Array<[unknown, number]> = args.map((a) => [a, 1]);
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > API_LIMITS.argStringChars) return `a text argument can be at most ${grouped(API_LIMITS.argStringChars)} characters (this one has ${grouped(v.length)}); upload seed files with uploadSeeds`;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth > API_LIMITS.argDepth) return `arguments can be nested at most ${API_LIMITS.argDepth} deep`;
    if (!Array.isArray(v)) {
      const key = Object.keys(v).find((k) => PROTOTYPE_KEYS.has(k));
      if (key !== undefined) return `an argument cannot have a field named ${key}`;
    }
    const items = Array.isArray(v) ? v : Object.values(v as object);
    if (items.length > API_LIMITS.argArrayItems) return `a list or object argument can hold at most ${grouped(API_LIMITS.argArrayItems)} items (this one has ${grouped(items.length)})`;
    for (const item of items) stack.push([item, depth + 1]);
  }
  return null;
}
