/** Writing Lua 5.2 source text from TypeScript values: string literals and table constructors. */

const encoder = new TextEncoder();

/** A Lua string literal of `text`: UTF-8 bytes outside printable ASCII as decimal escapes (Lua 5.2 has no \u). */
export function luaString(text: string): string {
  let out = '"';
  for (const byte of encoder.encode(text)) {
    if (byte === 0x22) out += '\\"';
    else if (byte === 0x5c) out += "\\\\";
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString().padStart(3, "0")}`;
  }
  return out + '"';
}

/** A Lua table literal mapping integer keys to strings, e.g. a value_string for a ProtoField. */
export function luaNumberMap(map: Readonly<Record<number, string>>): string {
  const entries = Object.entries(map).map(([k, v]) => `[${Number(k)}] = ${luaString(v)}`);
  return `{ ${entries.join(", ")} }`;
}

/** A Lua value for a plain JS value: strings, numbers, booleans, null as nil, arrays and records as tables. */
export function luaValue(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (typeof value === "string") return luaString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `{ ${value.map(luaValue).join(", ")} }`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{ ${entries.map(([k, v]) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : `[${luaString(k)}]`} = ${luaValue(v)}`).join(", ")} }`;
}
