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
