/**
 * Seeded randomness, the one copy of the project (the test web, the simulator, the
 * historical policies and the benches all draw here). Two kinds are needed:
 *  - streams (mulberry32): `Rng`, whose seed is mixed first so that nearby seeds give unrelated
 *    streams (the test web's generator), and `mulberry32`, the plain generator started from the
 *    raw seed (historical-pagerank-random, the benches); both keep drawing what they drew before
 *    they were merged here, so a web, a simulation or a crawl made earlier is made again;
 *  - stateless hashes (`hash`, `unit`) for attributes computed on demand (a page's path, size,
 *    title, filler offset), so the server can answer any page without storing anything per
 *    page and the answer never depends on the order in which pages were requested.
 * Both are pure 32-bit integer arithmetic, so results are identical on every platform.
 */

/** Avalanche mix of a 32-bit integer (lowbias32 by Chris Wellons): every input bit flips ~half the output. */
export function mix32(x: number): number {
  x = x >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of up to four integers; order matters. Used as `hash(seed, site, page, SALT)`. */
export function hash(a: number, b = 0, c = 0, d = 0): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ Math.imul(b | 0, 0x85ebca6b));
  h = mix32(h ^ Math.imul(c | 0, 0xc2b2ae35));
  h = mix32(h ^ Math.imul(d | 0, 0x27d4eb2f));
  return h;
}

/** A uint32 hash as a float in [0, 1). */
export function unit(h: number): number {
  return (h >>> 0) / 4294967296;
}

/** Hash of a string (FNV-1a then mixed), for salts derived from names. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** Standard normal from two uniforms (Box-Muller); u1 must be in (0, 1]. */
export function normalFrom(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** mulberry32: tiny, fast, good enough for simulation; state is one uint32. */
export class Rng {
  private s: number;
  /** The seed is mixed (mix32) into the state, so that seeds 1, 2, 3 start unrelated streams. */
  constructor(seed: number) {
    this.s = mix32(seed) >>> 0;
  }
  /** A stream whose state starts at `state` itself, unmixed: the textbook mulberry32. */
  static fromState(state: number): Rng {
    const rng = new Rng(0);
    rng.s = state | 0;
    return rng;
  }
  /** Next uint32. */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  private spare = NaN;
  /** Standard normal; Box-Muller yields two per draw, the second is kept for the next call. */
  normal(): number {
    if (!Number.isNaN(this.spare)) {
      const v = this.spare;
      this.spare = NaN;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(1 - this.float()));
    const a = 2 * Math.PI * this.float();
    this.spare = r * Math.sin(a);
    return r * Math.cos(a);
  }
  /** Lognormal with the given median and shape: median * exp(sigma * N(0,1)). */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

/** Lognormal drawn from a hash (stateless): median * exp(sigma * N(0,1)). */
export function lognormalAt(h1: number, h2: number, median: number, sigma: number): number {
  return median * Math.exp(sigma * normalFrom(1 - unit(h1), unit(h2)));
}

/** The textbook mulberry32 from a raw seed, as a function drawing uniforms in [0, 1). */
export function mulberry32(seed: number): () => number {
  const rng = Rng.fromState(seed);
  return () => rng.float();
}
