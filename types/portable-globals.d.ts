// Globals that browsers, workers and Node all provide; declared only for the pure-core type check
// (tsconfig.format.json), which has no DOM or Node types on purpose.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
declare function atob(data: string): string;
declare function btoa(data: string): string;
// The part of WebAssembly the checksum kernel uses (src/checksum/kernel/wasm-kernel.ts).
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  function validate(bytes: Uint8Array): boolean;
  function compile(bytes: Uint8Array): Promise<Module>;
}
// Blob (browsers, workers and Node 18+): the part lib/input-bytes.ts reads a File through.
declare class Blob {
  constructor(parts?: readonly (ArrayBuffer | ArrayBufferView | Blob | string)[], options?: { type?: string });
  readonly size: number;
  readonly type: string;
  slice(start?: number, end?: number, contentType?: string): Blob;
  arrayBuffer(): Promise<ArrayBuffer>;
}
