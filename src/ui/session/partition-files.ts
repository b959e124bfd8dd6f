/** Pure helpers for the files of a partition: segment-pair names and the partition's label. */
import { plural } from "../../format/values.ts";

/** The other file of a segment pair: `N.log` ↔ `N.index`, or null for any other name. */
export function companionName(name: string): string | null {
  if (name.endsWith(".log")) return `${name.slice(0, -4)}.index`;
  if (name.endsWith(".index")) return `${name.slice(0, -6)}.log`;
  return null;
}

/** What the status line names a partition of n loose files. */
export function partitionLabel(files: number, folder?: string): string {
  return `${folder ? `${folder} ` : "partition "}(${plural(files, "file")})`;
}
