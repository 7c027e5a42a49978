import { badOption } from '../errors.js';

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
const SIZE_UNITS: Record<string, number> = {
  b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4,
};

/** The longest wait a timer can hold (2^31 - 1 ms, about 24.8 days): Node fires a longer one at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The number a flag's text writes in plain decimal (`12`, `0.5`, `-3`, `1e6`), or NaN for any
 * other text, which `Number()` would read as a number: `0x10` (16), `0b1`, `Infinity`, and an
 * empty or blank value (0).
 */
export function decimal(text: string): number {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : NaN;
}

/**
 * Durations always carry a unit (`15s`, `50ms`, `2m`, `1h`) so that `--w 15` cannot be
 * misread as 15 ms; a bare `0` is accepted because it is the same in every unit.
 */
export function parseDuration(option: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)?\s*$/i.exec(text);
  if (!m) throw badOption(option, `"${text}" is not a duration (use e.g. 15s, 50ms, 2m)`);
  const value = Number(m[1]);
  const unit = m[2]?.toLowerCase();
  if (!unit) {
    if (value === 0) return 0;
    throw badOption(option, `"${text}" needs a unit (ms, s, m or h), e.g. ${text}s`);
  }
  const factor = DURATION_UNITS[unit];
  if (factor === undefined) throw badOption(option, `unknown unit "${m[2]}" in "${text}" (use ms, s, m or h)`);
  return value * factor;
}

/** A duration a timer waits (a throttle, a batch's gap; a crawl's settings have ranges of their own): at most MAX_TIMER_MS. */
export function parseWait(option: string, text: string): number {
  const ms = parseDuration(option, text);
  // Before, Node printed a TimeoutOverflowWarning and waited 1 ms instead.
  if (ms > MAX_TIMER_MS) throw badOption(option, `"${text}" is longer than the longest wait crawlbench can time (596h, about 24.8 days)`);
  return ms;
}

/** Sizes: `10MB`, `512KiB`, `2GB`, or a bare byte count. */
export function parseSize(option: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)?\s*$/i.exec(text);
  if (!m) throw badOption(option, `"${text}" is not a size (use e.g. 10MB, 512KiB)`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor = SIZE_UNITS[unit];
  if (factor === undefined) throw badOption(option, `unknown unit "${m[2]}" in "${text}" (use B, KB, MB, GB, KiB, MiB, GiB)`);
  return Math.round(Number(m[1]) * factor);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m}m${Math.round(s - m * 60)}s`;
  return `${Math.floor(m / 60)}h${m % 60}m`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}
