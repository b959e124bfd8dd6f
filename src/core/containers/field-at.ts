/** Which container field holds a byte: header fields by binary search, index entries and legacy messages placed on demand. */
import { partitionPoint } from "../../lib/binary-search.ts";
import { INDEX_ENTRY_FIELDS, INDEX_ENTRY_SIZE } from "../../format/containers/index-entry.ts";
import { LEGACY_HEADER_FIELDS } from "../../format/containers/legacy.ts";
import { legacyFields } from "./legacy.ts";
import { placeFields } from "./merge.ts";
import type { ContainerField, LegacyMessage, OpenedInput } from "./types.ts";

/**
 * The container field holding byte `offset`, or null. Header fields come from `container.fields`; the
 * repeated records of index files and legacy dumps (no header, maybe millions of records) are placed
 * on demand from `entries` / `legacy`, so the model never holds a field object per record.
 */
export function containerFieldAt(opened: Pick<OpenedInput, "container" | "entries" | "legacy">, bytes: Uint8Array, offset: number): ContainerField | null {
  if (offset < 0 || offset >= bytes.length) return null;
  let fields: readonly ContainerField[] = opened.container?.fields ?? [];
  if (opened.entries) {
    const k = Math.floor(offset / INDEX_ENTRY_SIZE);
    if (k >= opened.entries.length)
      return {
        kind: "index.trailing",
        name: "trailing_partial_entry",
        start: k * INDEX_ENTRY_SIZE,
        end: bytes.length,
        value: `${bytes.length - k * INDEX_ENTRY_SIZE} bytes`,
      };
    fields = placeFields(bytes, INDEX_ENTRY_FIELDS, k * INDEX_ENTRY_SIZE, `entries[${k}].`);
  } else if (opened.legacy) {
    const ms = opened.legacy.messages;
    const i = partitionPoint(0, ms.length, (k) => (ms[k] as LegacyMessage).start <= offset) - 1;
    const m = ms[i];
    fields = m && offset < m.end ? legacyFields(bytes, m.start, m.payloadLength, m.end) : placeFields(bytes, LEGACY_HEADER_FIELDS, m ? m.end : 0);
  }
  const i = partitionPoint(0, fields.length, (k) => (fields[k] as ContainerField).start <= offset) - 1;
  const f = i >= 0 ? fields[i] : undefined;
  return f && offset < f.end ? f : null;
}
