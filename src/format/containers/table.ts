/** A compact way to write container field tables in wire order (offsets follow from sizes). */
import type { FieldRole, FieldSpec, FieldType } from "../field-spec.ts";
import type { ContainerByteKind } from "./kinds.ts";

/** One row before offsets are filled in: kind, type, size, role, the spec's text. */
export type Row = readonly [kind: ContainerByteKind, type: FieldType, size: number, role: FieldRole, description: string];

const camel = (snake: string): string => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Builds a FieldSpec table from rows laid out back to back from `start`. */
export function layout(start: number, rows: readonly Row[]): FieldSpec[] {
  let offset = start;
  return rows.map(([kind, type, size, role, description]) => {
    const name = kind.slice(kind.indexOf(".") + 1);
    const spec: FieldSpec = { kind, name, jsonKey: camel(name), offset, size, type, role, description };
    offset += size;
    return spec;
  });
}
