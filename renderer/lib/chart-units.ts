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
