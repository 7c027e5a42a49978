/**
 * Decompression bombs, built once per process on first use and then shared (~1 MB + ~200 KB).
 *
 * gzip: deflating 1 GiB of zeros would take seconds, so we deflate 1 MiB of zeros once with a
 * full flush (byte-aligned, non-final blocks that never refer back across the flush), repeat
 * those bytes 1024 times, close with an empty final block and write the gzip trailer. The
 * trailer's CRC-32 of 1 GiB of zeros comes from the CRC of 1 MiB by ten doublings with
 * zlib's crc32_combine algorithm, so the stream is a valid single gzip member end to end.
 *
 * br: brotli streams cannot be spliced like that, but brotli at quality 1 compresses zeros at
 * several GB/s, so we stream 1 GiB of zeros through it once (~0.2 s) to ~200 KB.
 */
import zlib from 'node:zlib';

export const BOMB_DECODED_BYTES = 1 << 30;
const PIECE = 1 << 20;

let gzipBombBuf: Buffer | undefined;
let brotliBombBuf: Promise<Buffer> | undefined;

export function gzipBomb(): Buffer {
  if (gzipBombBuf) return gzipBombBuf;
  const zeros = Buffer.alloc(PIECE);
  const block = zlib.deflateRawSync(zeros, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const copies = BOMB_DECODED_BYTES / PIECE;
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);
  const finalBlock = Buffer.from([0x03, 0x00]);
  let crc = zlib.crc32(zeros);
  for (let len = PIECE; len < BOMB_DECODED_BYTES; len *= 2) crc = crc32Combine(crc, crc, len);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(BOMB_DECODED_BYTES % 2 ** 32, 4);
  const out = Buffer.allocUnsafe(header.length + block.length * copies + finalBlock.length + trailer.length);
  let off = header.copy(out, 0);
  for (let i = 0; i < copies; i++) off += block.copy(out, off);
  off += finalBlock.copy(out, off);
  trailer.copy(out, off);
  gzipBombBuf = out;
  return out;
}

export function brotliBomb(): Promise<Buffer> {
  brotliBombBuf ??= new Promise<Buffer>((resolve, reject) => {
    const enc = zlib.createBrotliCompress({
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
        [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: BOMB_DECODED_BYTES,
      },
    });
    const parts: Buffer[] = [];
    enc.on('data', (b: Buffer) => parts.push(b));
    enc.on('end', () => resolve(Buffer.concat(parts)));
    enc.on('error', reject);
    const zeros = Buffer.alloc(16 * PIECE);
    let left = BOMB_DECODED_BYTES / zeros.length;
    const pump = (): void => {
      while (left > 0) {
        left--;
        if (!enc.write(zeros)) return void enc.once('drain', pump);
      }
      enc.end();
    };
    pump();
  });
  return brotliBombBuf;
}

// --- CRC-32 combination (zlib's crc32_combine, over GF(2) 32x32 matrices) ---

function gf2Times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(mat, mat[n]!);
}

/** CRC-32 of A||B from crc(A), crc(B) and the length of B. */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // operator for one zero bit
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row >>> 0;
  gf2Square(even, odd); // two zero bits
  gf2Square(odd, even); // four zero bits
  let c = crc1 >>> 0;
  do {
    gf2Square(even, odd);
    if (len2 % 2 === 1) c = gf2Times(even, c);
    len2 = Math.floor(len2 / 2);
    if (len2 === 0) break;
    gf2Square(odd, even);
    if (len2 % 2 === 1) c = gf2Times(odd, c);
    len2 = Math.floor(len2 / 2);
  } while (len2 !== 0);
  return (c ^ crc2) >>> 0;
}
