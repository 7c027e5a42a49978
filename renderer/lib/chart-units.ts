/**
 * Units of chart axes, as the counters show them: a byte rate in B/s, KB/s, MB/s or GB/s
 * chosen by the largest value drawn (1 KB = 1024 bytes, as formatBytes counts), shares in %.
 */
import { formatNumber } from './format.js';

export interface AxisUnit {
  /** The axis name: the unit, as "KB/s". */
  name: string;
  /** Values are divided by this for their labels. */
  divisor: number;
}

const RATE_UNITS = ['B/s', 'KB/s', 'MB/s', 'GB/s'] as const;

/** The byte-rate unit in which the largest value is under 1024 (at least 1 where it can be). */
export function byteRateUnit(max: number): AxisUnit {
  let i = 0;
  let divisor = 1;
  while (Number.isFinite(max) && max / divisor >= 1024 && i < RATE_UNITS.length - 1) {
    divisor *= 1024;
    i++;
  }
  return { name: RATE_UNITS[i]!, divisor };
}

/** A value in a unit with the digits its size needs: 1.5, 12, 340. */
export function inUnit(value: number, unit: AxisUnit): string {
  const v = value / unit.divisor;
  return formatNumber(v, Math.abs(v) >= 10 ? 0 : Math.abs(v) >= 1 ? 1 : 2);
}

/** A share already in % (0..100): "42 %". */
export function percentLabel(v: number): string {
  return `${formatNumber(v, Math.abs(v) >= 10 || Number.isInteger(v) ? 0 : 1)} %`;
}

/**
 * Ticks that are round numbers in the unit (1, 2 or 5 times a power of ten, about five of
 * them), as raw values for the axis: the data stay in their own unit (bytes/s) while the
 * labels read 0, 0.5, 1, 1.5 MB/s rather than the unit's share of round byte counts.
 */
export function niceTicks(max: number, unit: AxisUnit, ticks = 5): { interval: number; max: number } {
  const top = max / unit.divisor;
  if (!(top > 0) || !Number.isFinite(top)) return { interval: unit.divisor, max: unit.divisor };
  const raw = top / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return { interval: step * unit.divisor, max: Math.ceil(top / step - 1e-9) * step * unit.divisor };
}
