/**
 * Integer weights that the partitioners accept. Debian's METIS (5.1.0) keeps weights in 32-bit
 * integers and sums them (a part's weight, the total for the balance, a coarse vertex's weight,
 * and on coarsening the costs of merged edges), and KaHyPar's weights are 32-bit too: byte sizes
 * of a large crawl overflow (5 million pages of 10 KB are 50 GB). So sizes are written in KB,
 * rounded up and at least 1 (an empty page still costs a request), and in a coarser unit when
 * even KB would sum past 2^31 - 1; edge costs in bytes, or likewise in a coarser unit when all
 * of them together would overflow. The unit is stated in the id map and in the output.
 */
export const INT32_MAX = 2 ** 31 - 1;

export const KB = 1024;

/** A weight in `unit` bytes: rounded up, at least 1. */
export function inUnits(bytes: number, unit: number): number {
  return Math.max(1, Math.ceil(bytes / unit));
}

/** The unit of vertex sizes: KB, or a multiple of KB (doubling) until the sum of all fits in int32. */
export function sizeUnit(bytes: ArrayLike<number>): number {
  let unit = KB;
  while (sumInUnits(bytes, unit) > INT32_MAX) unit *= 2;
  return unit;
}

function sumInUnits(bytes: ArrayLike<number>, unit: number): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i++) sum += inUnits(bytes[i]!, unit);
  return sum;
}

/**
 * The unit of edge costs: 1 byte while every cost counted at both ends (as METIS stores them)
 * sums to at most 2^31 - 1; else the smallest larger unit for which the rounded-up costs do.
 * `total` is the sum of the costs of all undirected edges, `edges` their number.
 */
export function costUnit(total: number, edges: number): number {
  if (2 * total <= INT32_MAX) return 1;
  const room = INT32_MAX - 2 * edges;
  if (room <= 0) throw new RangeError(`${edges} edges cannot carry weights that METIS sums in 32 bits`);
  return Math.ceil((2 * total) / room);
}

/** How a unit reads in an id map's header and in the output. */
export function unitName(unit: number): string {
  if (unit === 1) return 'bytes';
  if (unit === KB) return 'KB';
  return unit % KB === 0 ? `${unit / KB}KB` : `${unit}B`;
}
