/**
 * Payload digests already written to a WARC, and which record holds each: the basis of revisit
 * records. A Map of a million 32-character keys and objects costs ~150 MB; this keeps each
 * digest's 20 bytes and a 53-bit reference in typed arrays (~40 bytes an entry at most), in
 * an open-addressing table keyed by the digest's first 32 bits.
 */
const EMPTY = -1;

export class DigestTable {
  private digests = new Uint8Array(20 * 1024);
  private refs = new Float64Array(1024);
  private slots = new Int32Array(2048).fill(EMPTY);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The reference stored for this digest, or undefined. */
  get(digest: Uint8Array): number | undefined {
    const i = this.find(digest);
    const e = this.slots[i]!;
    return e === EMPTY ? undefined : this.refs[e];
  }

  /** Stores `ref` for the digest unless it is there; returns the stored reference. */
  claim(digest: Uint8Array, ref: number): number {
    const i = this.find(digest);
    const e = this.slots[i]!;
    if (e !== EMPTY) return this.refs[e]!;
    if (this.count === this.refs.length) this.growEntries();
    this.digests.set(digest.subarray(0, 20), this.count * 20);
    this.refs[this.count] = ref;
    this.slots[i] = this.count++;
    if (this.count * 2 > this.slots.length) this.rehash();
    return ref;
  }

  private find(digest: Uint8Array): number {
    const mask = this.slots.length - 1;
    let i = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) & mask;
    for (;;) {
      const e = this.slots[i]!;
      if (e === EMPTY || this.same(e, digest)) return i;
      i = (i + 1) & mask;
    }
  }

  private same(entry: number, digest: Uint8Array): boolean {
    const at = entry * 20;
    for (let k = 0; k < 20; k++) if (this.digests[at + k] !== digest[k]) return false;
    return true;
  }

  private growEntries(): void {
    const digests = new Uint8Array(this.digests.length * 2);
    digests.set(this.digests);
    this.digests = digests;
    const refs = new Float64Array(this.refs.length * 2);
    refs.set(this.refs);
    this.refs = refs;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    for (let e = 0; e < this.count; e++) {
      const i = this.find(this.digests.subarray(e * 20, e * 20 + 20));
      this.slots[i] = e;
    }
  }
}
