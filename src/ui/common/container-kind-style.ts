/**
 * Colours of the container kinds (src/format/containers): one colour per role group, so a container
 * header reads at a glance (ids, offsets, times, lengths, checksums, reserved, values) without a
 * palette entry per field. The groups are core/view/palette.ts's CONTAINER_COLOUR_GROUP, which the SVG pictures read too.
 */
import type { ContainerByteKind } from "../../format/containers/kinds.ts";
import { CONTAINER_COLOUR_GROUP } from "../../core/view/palette.ts";

/** Class and label of one byte kind (kind-style.ts re-exports it; defined here so neither file imports the other back). */
export interface KindStyle {
  /** Sets `--kind-bg`/`--kind-fg` and paints the element's background with them. */
  readonly className: string;
  /** Short human label, e.g. "batch base_offset". */
  readonly label: string;
}

/** The colour class of a container kind's group (the first class of its className). */
export function containerColourClass(kind: ContainerByteKind): string {
  return `kind-container-${CONTAINER_COLOUR_GROUP[kind]}`;
}

/** Style of every container kind: its group's colour class, a class of its own (for tests and selectors) and a label naming the field. */
export const CONTAINER_KIND_STYLE = Object.fromEntries(
  Object.keys(CONTAINER_COLOUR_GROUP).map((kind) => [
    kind,
    { className: `${containerColourClass(kind as ContainerByteKind)} kind-c-${kind.replace(/[._]/g, "-")}`, label: kind.replace(".", " ") },
  ]),
) as { readonly [K in ContainerByteKind]: KindStyle };
