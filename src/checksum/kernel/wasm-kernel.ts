/**
 * The compiled kernel (kernel.c) in one realm: its memory, the Xxh3 interface on top of it, and the
 * batched walk. Input bytes either are copied into a staging area or, for streaming callers, read
 * straight into the walk's input area, so a whole file never has to exist outside wasm memory.
 */
import { KERNEL_WASM_BASE64 } from "./kernel-wasm.ts";
import { BATCH_RECORD_WORDS, FLAGGED_RECORD_WORDS, WALK_CONTROL, WALK_CONTROL_WORDS } from "./abi.ts";
import { BATCH_HEADER_SIZE, FRAME_HEADER_SIZE } from "../../format/fields.ts";

interface KernelExports {
  hash_windows(data: number, starts: number, ends: number, n: number, out: number): void;
  verify_frames(data: number, starts: number, ends: number, n: number): number;
  stream_reset(): void;
  stream_update(data: number, n: number): void;
  stream_digest(out: number): void;
  walk(data: number, len: number, ctl: number): number;
  __heap_base: { value: number };
}

const PAGE = 65_536;
/** Bytes hashed per staged copy; longer windows are streamed through XXH3's state in pieces this size. */
const STAGE_BYTES = 1 << 20;
/** Windows per hash_windows call: its start, end and output tables sit after the staging area. */
const STAGE_WINDOWS = 8192;
/** Bytes per frame of the kept columns as the kernel writes them: u32 start and payload_length, u8 flags. */
const COLUMN_BYTES_PER_FRAME = 4 + 4 + 1;

const align8 = (n: number): number => (n + 7) & ~7;

/** Where walk()'s tables sit for an input area of a given capacity. */
interface WalkLayout {
  readonly capacity: number;
  readonly input: number;
  readonly ctl: number;
  readonly records: number;
  readonly flagged: number;
  readonly scratch: number;
  readonly framesCap: number;
  readonly batchesCap: number;
  readonly columns: readonly number[];
  readonly end: number;
}

function walkLayout(origin: number, capacity: number): WalkLayout {
  const framesCap = Math.floor(capacity / FRAME_HEADER_SIZE) + 1;
  const batchesCap = Math.floor(capacity / BATCH_HEADER_SIZE) + 1;
  let at = align8(origin);
  const take = (bytes: number): number => {
    const p = at;
    at = align8(at + bytes);
    return p;
  };
  const input = take(capacity);
  const ctl = take(WALK_CONTROL_WORDS * 4);
  const records = take(batchesCap * BATCH_RECORD_WORDS * 4);
  const flagged = take(framesCap * FLAGGED_RECORD_WORDS * 4);
  const scratch = take(framesCap * 8 + 64);
  // Column order as WALK_CONTROL lists them: start, payloadLength, flags.
  const widths = [4, 4, 1];
  const columns = widths.map((w) => take(framesCap * w));
  return { capacity, input, ctl, records, flagged, scratch, framesCap, batchesCap, columns, end: at };
}

/** What one walk() call found: counts and views into wasm memory, valid until the next kernel call. */
export interface WalkResult {
  readonly batches: number;
  readonly frames: number;
  readonly flagged: number;
  /** Bytes of whole batches walked from the start of the input area. */
  readonly consumed: number;
  /** u32 view of the batch records (BATCH_RECORD_WORDS each). */
  readonly records: Uint32Array;
  /** u32 view of the flagged-frame records (FLAGGED_RECORD_WORDS each). */
  readonly flaggedRecords: Uint32Array;
  /** The model's kept frame columns for frames [0, frames), when columns were asked for. */
  readonly columns: KernelColumns | null;
}

/**
 * The model's kept frame columns (FRAME_COLUMNS) as the kernel wrote them for one walk; a mismatching
 * frame's computed checksum and a flagged frame's offset_delta are in its flagged record, the last frame's
 * user_headers_length in its batch record.
 */
export interface KernelColumns {
  /** Each frame's start less `startBase`: its absolute start while the window ends by 4 GiB (startBase 0). */
  readonly start: Uint32Array;
  readonly startBase: number;
  readonly payloadLength: Uint32Array;
  readonly flags: Uint8Array;
}

/** The batched walk: an input area in wasm memory that callers fill, and one call that walks whole batches in it. */
export interface KernelWalker {
  /** The input area, at least `capacity` bytes; a view that a later reserve() or kernel call may replace. */
  inputArea(capacity: number): Uint8Array;
  /** Walks whole batches of the first `length` bytes of the input area (see walk() in kernel.c). */
  walk(length: number, base: number, fillColumns: boolean, clampToEnd: boolean): WalkResult;
}

/** One loaded kernel instance: the Xxh3 methods and the walk share its memory. */
export class WasmKernel implements KernelWalker {
  private readonly ex: KernelExports;
  private readonly memory: WebAssembly.Memory;
  private readonly stage: number;
  private readonly stageStarts: number;
  private readonly stageEnds: number;
  private readonly stageOut: number;
  private layout: WalkLayout;
  private u8: Uint8Array;
  /** The Xxh3 capability of the batched walk: this instance itself. */
  readonly walker: KernelWalker = this;

  /** Instantiates a compiled kernel module with a fresh memory. */
  constructor(module: WebAssembly.Module) {
    this.memory = new WebAssembly.Memory({ initial: 64 });
    const instance = new WebAssembly.Instance(module, { env: { memory: this.memory } });
    this.ex = instance.exports as unknown as KernelExports;
    let at = align8(this.ex.__heap_base.value);
    this.stage = at;
    at += STAGE_BYTES;
    this.stageStarts = at;
    at += 4 * STAGE_WINDOWS;
    this.stageEnds = at;
    at += 4 * STAGE_WINDOWS;
    this.stageOut = at;
    at += 8 * STAGE_WINDOWS;
    this.layout = walkLayout(at, 0);
    this.u8 = new Uint8Array(this.memory.buffer);
    this.ensure(this.layout.end);
  }

  private ensure(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / PAGE));
    if (this.u8.buffer !== this.memory.buffer) this.u8 = new Uint8Array(this.memory.buffer);
  }

  /** XXH3-64 of one byte string. */
  hash(data: Uint8Array): bigint {
    const out = new BigUint64Array(1);
    this.hashWindows(data, [0], [data.length], 0, 1, out);
    return out[0] as bigint;
  }

  /** XXH3-64 of windows [starts[i], ends[i]) of input into out[i], for i in [from, to); see Xxh3. */
  hashWindows(input: Uint8Array, starts: ArrayLike<number>, ends: ArrayLike<number>, from: number, to: number, out: BigUint64Array): void {
    let i = from;
    while (i < to) {
      const s0 = starts[i] as number;
      const e0 = ends[i] as number;
      if (e0 - s0 > STAGE_BYTES) {
        out[i] = this.hashStreamed(input, s0, e0);
        i++;
        continue;
      }
      // A group of windows whose span fits the staging area: one copy and one call.
      let lo = s0;
      let hi = e0;
      let j = i + 1;
      while (j < to && j - i < STAGE_WINDOWS) {
        const s = starts[j] as number;
        const e = ends[j] as number;
        const nlo = Math.min(lo, s);
        const nhi = Math.max(hi, e);
        if (nhi - nlo > STAGE_BYTES) break;
        lo = nlo;
        hi = nhi;
        j++;
      }
      this.u8.set(input.subarray(lo, hi), this.stage);
      const n = j - i;
      const st = new Uint32Array(this.memory.buffer, this.stageStarts, n);
      const en = new Uint32Array(this.memory.buffer, this.stageEnds, n);
      for (let k = 0; k < n; k++) {
        st[k] = (starts[i + k] as number) - lo;
        en[k] = (ends[i + k] as number) - lo;
      }
      this.ex.hash_windows(this.stage, this.stageStarts, this.stageEnds, n, this.stageOut);
      out.set(new BigUint64Array(this.memory.buffer, this.stageOut, n), i);
      i = j;
    }
  }

  private hashStreamed(input: Uint8Array, start: number, end: number): bigint {
    this.ex.stream_reset();
    for (let p = start; p < end; p += STAGE_BYTES) {
      const q = Math.min(end, p + STAGE_BYTES);
      this.u8.set(input.subarray(p, q), this.stage);
      this.ex.stream_update(this.stage, q - p);
    }
    this.ex.stream_digest(this.stageOut);
    return new BigUint64Array(this.memory.buffer, this.stageOut, 1)[0] as bigint;
  }

  inputArea(capacity: number): Uint8Array {
    if (capacity > this.layout.capacity) {
      // The input area stays where it is and keeps its bytes; only the tables after it move.
      this.layout = walkLayout(this.layout.input, capacity);
      this.ensure(this.layout.end);
    }
    return new Uint8Array(this.memory.buffer, this.layout.input, this.layout.capacity);
  }

  walk(length: number, base: number, fillColumns: boolean, clampToEnd: boolean): WalkResult {
    const L = this.layout;
    if (length > L.capacity) throw new RangeError(`walk of ${length} bytes over an input area of ${L.capacity}`);
    const buf = this.memory.buffer;
    const ctl = new Uint32Array(buf, L.ctl, WALK_CONTROL_WORDS);
    const c = L.columns;
    ctl[WALK_CONTROL.framesCap] = L.framesCap;
    ctl[WALK_CONTROL.batchesCap] = L.batchesCap;
    ctl[WALK_CONTROL.fillColumns] = fillColumns ? 1 : 0;
    ctl[WALK_CONTROL.colStart] = c[0] as number;
    ctl[WALK_CONTROL.colPayloadLength] = c[1] as number;
    ctl[WALK_CONTROL.colFlags] = c[2] as number;
    ctl[WALK_CONTROL.batchRecords] = L.records;
    ctl[WALK_CONTROL.flaggedRecords] = L.flagged;
    ctl[WALK_CONTROL.scratch] = L.scratch;
    ctl[WALK_CONTROL.clampToEnd] = clampToEnd ? 1 : 0;
    // Absolute u32 starts while the window ends by 4 GiB; past that, relative ones the caller adds `base` to.
    const startBase = base + length <= 2 ** 32 ? 0 : base;
    ctl[WALK_CONTROL.startBase] = base - startBase;
    const batches = this.ex.walk(L.input, length, L.ctl);
    const frames = ctl[WALK_CONTROL.outFrames] as number;
    const flagged = ctl[WALK_CONTROL.outFlagged] as number;
    return {
      batches,
      frames,
      flagged,
      consumed: ctl[WALK_CONTROL.outConsumed] as number,
      records: new Uint32Array(buf, L.records, batches * BATCH_RECORD_WORDS),
      flaggedRecords: new Uint32Array(buf, L.flagged, flagged * FLAGGED_RECORD_WORDS),
      columns: fillColumns
        ? {
            start: new Uint32Array(buf, c[0], frames),
            startBase,
            payloadLength: new Uint32Array(buf, c[1], frames),
            flags: new Uint8Array(buf, c[2], frames),
          }
        : null,
    };
  }
}

/** Column bytes per frame the walk writes, for sizing memory budgets. */
export const KERNEL_COLUMN_BYTES_PER_FRAME = COLUMN_BYTES_PER_FRAME;

/** A tiny module, `() -> v128 { i8x16.splat(i32.const 0) }`: WebAssembly.validate says whether this engine has SIMD128. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);

/** Whether this engine runs WebAssembly SIMD128 (missing in Safari < 16.4, Chrome < 91, Firefox < 89). */
export function hasWasmSimd(): boolean {
  try {
    return typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

const compiled = new Map<boolean, Promise<WebAssembly.Module>>();

/**
 * Compiles the inlined kernel once per realm: the SIMD build where this engine has SIMD, else the same C
 * built without it (loaded only then); instantiate one WasmKernel per user of its memory.
 */
export function compileKernel(simd: boolean = hasWasmSimd()): Promise<WebAssembly.Module> {
  let module = compiled.get(simd);
  if (!module) {
    const base64 = simd ? Promise.resolve(KERNEL_WASM_BASE64) : import("./kernel-nosimd-wasm.ts").then((m) => m.KERNEL_NOSIMD_WASM_BASE64);
    module = base64.then((text) => WebAssembly.compile(base64Bytes(text)));
    compiled.set(simd, module);
  }
  return module;
}

/** A new kernel instance with its own memory (e.g. one per worker or per streaming analysis). */
export async function createWasmKernel(module?: WebAssembly.Module): Promise<WasmKernel> {
  return new WasmKernel(module ?? (await compileKernel()));
}
