/**
 * The PageRank scatter loop as a hand-assembled WebAssembly function (no toolchain needed
 * at build or run time). Why wasm: on ten million links it runs 2.5x faster than the same
 * loop in JavaScript, where V8 re-checks typed-array bounds and lengths on every access.
 *
 *   scatter(v0, v1, off, tgt, rank, inv, next) -> f64, pointers are byte offsets into env.mem:
 *     s = off[v0]; for (v = v0; v < v1; v++) { e = off[v+1]; r = rank[v];
 *       if (s == e) dangling += r; else { share = r * inv[v]; for (k = s; k < e; k++) next[tgt[k]] += share; }
 *       s = e; }
 *     return dangling;
 * The same operations in the same order as the JavaScript loop, so the same results.
 */

/** The part of the WebAssembly API used here (the project's lib settings do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
export const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

export type ScatterFn = (v0: number, v1: number, off: number, tgt: number, rank: number, inv: number, next: number) => number;

let cached: object | null | undefined;

/** The compiled module (compiled once); null where wasm cannot run (e.g. node --jitless). */
export function scatterModule(): object | null {
  if (cached === undefined) {
    try {
      cached = wasm ? new wasm.Module(assemble()) : null;
    } catch {
      cached = null;
    }
  }
  return cached;
}

export function instantiate(module: object, memory: WasmMemory): ScatterFn {
  return new wasm!.Instance(module, { env: { mem: memory } }).exports.scatter as ScatterFn;
}

const uleb = (x: number): number[] => {
  const out: number[] = [];
  do {
    let byte = x & 0x7f;
    x >>>= 7;
    if (x) byte |= 0x80;
    out.push(byte);
  } while (x);
  return out;
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => vec([...s].map((c) => [c.charCodeAt(0)]));
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];

function assemble(): Uint8Array {
  const I32 = 0x7f;
  const F64 = 0x7c;
  // Params 0..6: v0 v1 off tgt rank inv next. Locals: 7 v, 8 s, 9 e, 10 k, 11 addr (i32); 12 dangling, 13 share, 14 r (f64).
  const get = (i: number) => [0x20, i];
  const set = (i: number) => [0x21, i];
  const tee = (i: number) => [0x22, i];
  const i32 = (x: number) => [0x41, x]; // only 1, 2, 3 are used: one-byte LEB128
  const ADD = 0x6a;
  const SHL = 0x74;
  const U32 = [0x28, 2, 0]; // i32.load align=4
  const LOAD_F64 = [0x2b, 3, 0];
  const STORE_F64 = [0x39, 3, 0];
  const at = (base: number, index: number[], shift: number) => [...get(base), ...index, ...i32(shift), SHL, ADD];
  const code = [
    ...get(0), ...set(7),
    ...at(2, get(7), 2), ...U32, ...set(8),
    0x02, 0x40, 0x03, 0x40, // block, loop over v
    ...get(7), ...get(1), 0x4f, 0x0d, 1, // if v >= v1 (unsigned): break
    ...at(2, [...get(7), ...i32(1), ADD], 2), ...U32, ...set(9),
    ...at(4, get(7), 3), ...LOAD_F64, ...set(14),
    ...get(8), ...get(9), 0x46, 0x04, 0x40, // if s == e
    ...get(12), ...get(14), 0xa0, ...set(12),
    0x05, // else
    ...get(14), ...at(5, get(7), 3), ...LOAD_F64, 0xa2, ...set(13),
    ...get(8), ...set(10),
    0x03, 0x40, // loop over k
    ...get(6), ...at(3, get(10), 2), ...U32, ...i32(3), SHL, ADD, ...tee(11),
    ...get(11), ...LOAD_F64, ...get(13), 0xa0, ...STORE_F64,
    ...get(10), ...i32(1), ADD, ...tee(10), ...get(9), 0x49, 0x0d, 0, // k++; continue while k < e (unsigned)
    0x0b, 0x0b, // end loop k, end if
    ...get(9), ...set(8),
    ...get(7), ...i32(1), ADD, ...set(7),
    0x0c, 0, 0x0b, 0x0b, // continue loop v; end loop; end block
    ...get(12), 0x0b,
  ];
  const body = [...vec([[5, I32], [3, F64]]), ...code];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([[F64]])]])),
    ...section(2, vec([[...name('env'), ...name('mem'), 0x02, 0x00, 0x01]])), // import memory, min 1 page
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('scatter'), 0x00, 0]])),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}
