/** The few bytes the hex map's tooltip and inspector read about one byte, taken from an input's InputBytes. */
import { kindNeeds } from "../../core/view/byte-map.ts";
import type { ContainerField } from "../../core/containers/index.ts";
import type { Analysis } from "../../core/model/model.ts";
import type { ByteWindow, InputBytes } from "../../lib/input-bytes.ts";
import { peekRanges, type Peeked } from "../common/input-windows.ts";
import { byteInfoNeeds } from "./byte-info.ts";
import { fieldAt, type FieldHit } from "./field-at.ts";

/** The field of byte `offset` and the bytes its tooltip reads (kindNeeds, then byteInfoNeeds of the hit). */
export function peekField(analysis: Analysis, source: InputBytes, offset: number, container?: readonly ContainerField[]): Peeked & { readonly hit: FieldHit } {
  const kinds = peekRanges(source, kindNeeds(analysis, offset, offset + 1));
  const hit = fieldAt(analysis, kinds.windows, offset, container);
  if (source.whole) return { hit, windows: source.whole, missing: [] };
  const info = peekRanges(source, byteInfoNeeds(hit));
  return {
    hit,
    windows: [...(kinds.windows as ByteWindow[]), ...(info.windows as ByteWindow[])],
    missing: [...kinds.missing, ...info.missing],
  };
}

/** The field of byte `offset` (its kinds read from the bytes at hand: exact unless a truncated frame's header is still being read). */
export function hitAt(analysis: Analysis, source: InputBytes, offset: number, container?: readonly ContainerField[]): FieldHit {
  return fieldAt(analysis, peekRanges(source, kindNeeds(analysis, offset, offset + 1)).windows, offset, container);
}
