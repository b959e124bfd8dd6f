/**
 * The dissector's declarations, generated from the layout tables and the code table: one ProtoField
 * per table field (`iggy.` + the kind with `consensus` as `header`), a date beside each microsecond
 * timestamp, a computed value beside each u64 checksum, one ProtoExpert per code a message can show,
 * and each layout as a Lua table the engine (lua-engine.ts) walks.
 */
import { showOf, VARIABLE_PARTS, type FieldSpec } from "../../format/fields.ts";
import { DIAGNOSTIC_TABLE, type Severity } from "../../format/diagnostics.ts";
import { HEADER_KINDS } from "../../format/user-headers.ts";
import { luaNumberMap, luaString, luaValue } from "./lua-text.ts";

/** One layout the engine decodes by name, with value names for some of its fields (by kind). */
export interface DissectorLayout {
  /** The name the engine uses: LAYOUT.<name>. */
  readonly name: string;
  readonly fields: readonly FieldSpec[];
  readonly valueNames?: Readonly<Record<string, Readonly<Record<number, string>>>>;
  /** Kinds whose bytes are never shown: the field is a string of `mask` and the byte count. */
  readonly secret?: { readonly kinds: readonly string[]; readonly mask: string };
}

/** A field of the dissector that no layout row describes (structure items, variable parts, links). */
export interface ExtraField {
  readonly abbrev: string;
  /** A ProtoField constructor: none, bytes, string, uint8, uint32, framenum, relative_time. */
  readonly kind: string;
  readonly name: string;
  readonly description: string;
  readonly valueNames?: Readonly<Record<number, string>>;
  /** For framenum: frametype.REQUEST or frametype.RESPONSE. */
  readonly frameType?: "REQUEST" | "RESPONSE";
}

/** The display filter name of a table field: `iggy.` + its kind, the consensus common part as `header`. */
export function abbrevOf(spec: FieldSpec): string {
  const dot = spec.kind.indexOf(".");
  const scope = spec.kind.slice(0, dot);
  return `iggy.${scope === "consensus" ? "header" : scope}.${spec.kind.slice(dot + 1)}`;
}

/** The expert info name of a code: `iggy.` + the code with `-` as `_`. */
export function expertAbbrev(code: string): string {
  return `iggy.${code.replace(/-/g, "_")}`;
}

/** Codes about a file, a segment chain or an index, never about one message: they get no expert info. */
const NOT_PER_MESSAGE = /^(segment-|index-|partition-|recovery-|legacy-|format-|capture-unreadable|capture-link)/;

/** The codes of the code table a single message can show, in the table's order. */
export function messageCodes(): { code: string; severity: Severity; summary: string }[] {
  return DIAGNOSTIC_TABLE.filter((d) => !NOT_PER_MESSAGE.test(d.code));
}

const PROTO_FIELD: Record<FieldSpec["type"], string> = { u8: "uint8", u16: "uint16", u32: "uint32", u64: "uint64", u128: "bytes", bytes: "bytes" };
const SEVERITY: Record<Severity, string> = { error: "ERROR", warning: "WARN", info: "NOTE" };

/** The code a nonzero reserved field raises, `<scope>-reserved-nonzero`, when the code table has one. */
function reservedCode(f: FieldSpec): string | undefined {
  const code = `${f.kind.slice(0, f.kind.indexOf("."))}-reserved-nonzero`;
  return DIAGNOSTIC_TABLE.some((d) => d.code === code) ? code : undefined;
}

function groupOf(code: string): string {
  if (code.includes("checksum")) return "CHECKSUM";
  if (code.includes("login")) return "SECURITY";
  if (/truncated|incomplete|invalid|too-small|malformed/.test(code)) return "MALFORMED";
  return "PROTOCOL";
}

function fieldDecl(abbrev: string, ctor: string, name: string, base: string, valueNames: string, description: string): string {
  const head = `F[${luaString(abbrev)}] = ProtoField.${ctor}(${luaString(abbrev)}, ${luaString(name)}`;
  const desc = luaString(description);
  switch (ctor) {
    case "none":
      return `${head}, ${desc})`;
    case "bytes":
    case "string":
      return `${head}, nil, ${desc})`;
    case "absolute_time":
      return `${head}, ${base}, ${desc})`;
    default: // the integer constructors: base, value names, mask, description
      return `${head}, ${base}, ${valueNames}, nil, ${desc})`;
  }
}

/** The Lua that declares every field (F), value name (VS), expert (EXPERT) and layout (LAYOUT). */
export function declarationsLua(layouts: readonly DissectorLayout[], extras: readonly ExtraField[]): string {
  const out: string[] = ["local F, LAYOUT, EXPERT = {}, {}, {}"];
  const seen = new Set<string>();
  const declare = (abbrev: string, text: string): void => {
    if (seen.has(abbrev)) return; // a layout placed twice (stream_id and topic_id) declares its fields once
    seen.add(abbrev);
    out.push(text);
  };
  for (const layout of layouts) {
    const rows: string[] = [];
    for (const f of layout.fields) {
      const abbrev = abbrevOf(f);
      const show = showOf(f);
      const names = layout.valueNames?.[f.kind];
      const base = show === "checksum" ? "base.HEX" : f.type === "u128" || f.type === "bytes" ? "base.NONE" : "base.DEC";
      const mask = layout.secret?.kinds.includes(f.kind) ? layout.secret.mask : undefined;
      declare(abbrev, fieldDecl(abbrev, mask ? "string" : PROTO_FIELD[f.type], f.name, base, names ? luaNumberMap(names) : "nil", f.description));
      const date = show === "micros" ? `${abbrev}_date` : undefined;
      if (date) declare(date, fieldDecl(date, "absolute_time", `${f.name} (date)`, "base.UTC", "nil", `${f.name} as a UTC date (microseconds since 1970).`));
      const computed = show === "checksum" && f.type === "u64" ? `${abbrev}_computed` : undefined;
      if (computed)
        declare(computed, fieldDecl(computed, "uint64", `${f.name} (computed)`, "base.HEX", "nil", `XXH3-64 the dissector computed for ${f.name}.`));
      const code = f.role === "reserved" ? reservedCode(f) : undefined;
      rows.push(luaValue({ a: abbrev, name: f.name, o: f.offset, s: f.size, t: f.type, role: f.role, date, computed, code, mask }));
    }
    out.push(`LAYOUT.${layout.name} = {\n  ${rows.join(",\n  ")},\n}`);
  }
  for (const x of extras) {
    const names = x.valueNames ? luaNumberMap(x.valueNames) : "nil";
    if (x.kind === "framenum")
      declare(
        x.abbrev,
        `F[${luaString(x.abbrev)}] = ProtoField.framenum(${luaString(x.abbrev)}, ${luaString(x.name)}, base.NONE, frametype.${x.frameType ?? "NONE"}, nil, ${luaString(x.description)})`,
      );
    else if (x.kind === "relative_time")
      declare(x.abbrev, `F[${luaString(x.abbrev)}] = ProtoField.relative_time(${luaString(x.abbrev)}, ${luaString(x.name)}, ${luaString(x.description)})`);
    else declare(x.abbrev, fieldDecl(x.abbrev, x.kind, x.name, "base.DEC", names, x.description));
  }
  for (const d of messageCodes())
    out.push(
      `EXPERT[${luaString(d.code)}] = ProtoExpert.new(${luaString(expertAbbrev(d.code))}, ${luaString(d.summary)}, expert.group.${groupOf(d.code)}, expert.severity.${SEVERITY[d.severity]})`,
    );
  return out.join("\n");
}

/** The fields every dissection adds beside the table rows: structure items, the variable frame parts, user header TLV, request/reply links. */
export const EXTRA_FIELDS: readonly ExtraField[] = [
  { abbrev: "iggy.header", kind: "none", name: "Consensus header", description: "The 256-byte consensus header." },
  { abbrev: "iggy.send", kind: "none", name: "SendMessages body", description: "Metadata, then one producer batch." },
  { abbrev: "iggy.poll", kind: "none", name: "Poll reply body", description: "A 16-byte prefix, then batches." },
  {
    abbrev: "iggy.poll_request",
    kind: "none",
    name: "PollMessages request body",
    description: "Consumer, stream and topic identifiers, then partition, strategy, value, count, auto-commit.",
  },
  {
    abbrev: "iggy.login",
    kind: "none",
    name: "Login body",
    description: "Protocol version, SDK name and version, username and password (or a token), context.",
  },
  { abbrev: "iggy.confirm", kind: "none", name: "Send confirmations", description: "A count, then one confirmation per partition written." },
  { abbrev: "iggy.body", kind: "bytes", name: "body", description: "A body the dissector shows raw." },
  { abbrev: "iggy.batch", kind: "none", name: "Batch", description: "One batch: a 256-byte header, then frames." },
  { abbrev: "iggy.frame", kind: "none", name: "Frame", description: "One message frame: a 48-byte header, payload, user headers." },
  { abbrev: "iggy.frame.payload", kind: "bytes", name: VARIABLE_PARTS["frame.payload"].name, description: VARIABLE_PARTS["frame.payload"].description },
  {
    abbrev: "iggy.frame.user_headers",
    kind: "bytes",
    name: VARIABLE_PARTS["frame.user_headers"].name,
    description: VARIABLE_PARTS["frame.user_headers"].description,
  },
  { abbrev: "iggy.user_header", kind: "none", name: "User header", description: "One user header: a key TLV entry, then a value TLV entry." },
  { abbrev: "iggy.user_header.key", kind: "string", name: "key", description: "The key, rendered as its kind says." },
  { abbrev: "iggy.user_header.key_kind", kind: "uint8", name: "key kind", description: "TLV kind of the key.", valueNames: kindNames() },
  { abbrev: "iggy.user_header.value", kind: "string", name: "value", description: "The value, rendered as its kind says." },
  { abbrev: "iggy.user_header.value_kind", kind: "uint8", name: "value kind", description: "TLV kind of the value.", valueNames: kindNames() },
  { abbrev: "iggy.response_in", kind: "framenum", name: "Response in", description: "The frame of the reply to this request.", frameType: "RESPONSE" },
  { abbrev: "iggy.response_to", kind: "framenum", name: "Request in", description: "The frame of the request this reply answers.", frameType: "REQUEST" },
  { abbrev: "iggy.time", kind: "relative_time", name: "Latency", description: "Reply time minus request time." },
];

function kindNames(): Record<number, string> {
  const names: Record<number, string> = {};
  HEADER_KINDS.forEach((name, kind) => {
    if (name !== "") names[kind] = name;
  });
  return names;
}
