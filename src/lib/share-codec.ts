/** The share-link fragment: the whole input (and selection) deflated with fflate, in base64url, never sent to a server. */
import { Inflate, deflateSync } from "fflate";

/** What a link carries. */
export interface SharedState {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly selection: { readonly start: number; readonly end: number } | null;
  /**
   * The format to open it as (a containers.md name); absent means auto-detect. Links made before
   * issue 8 carried an envelope id instead (`e`): "poll-reply" reads as poll-reply, "replicated-record" as prepare.
   */
  readonly format?: string;
}

/** Most bytes a link may inflate to: a crafted link must not be able to exhaust the tab's memory. */
export const MAX_SHARED_BYTES = 32 << 20;

/** The fragment prefix; the version lets later formats coexist. */
export const SHARE_PREFIX = "#iggy1.";

const toBase64Url = (bytes: Uint8Array): string => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const fromBase64Url = (text: string): Uint8Array => {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/** Encodes state as a URL fragment: [u32 meta length][meta JSON][input bytes], deflated. */
export function encodeShareFragment(state: SharedState): string {
  const meta = new TextEncoder().encode(JSON.stringify({ n: state.name, s: state.selection ? [state.selection.start, state.selection.end] : null, ...(state.format && state.format !== "auto" ? { f: state.format } : {}) }));
  const raw = new Uint8Array(4 + meta.length + state.bytes.length);
  new DataView(raw.buffer).setUint32(0, meta.length, true);
  raw.set(meta, 4);
  raw.set(state.bytes, 4 + meta.length);
  return SHARE_PREFIX + toBase64Url(deflateSync(raw, { level: 6 }));
}

// The envelope ids of links made before formats existed, as the format names they stand for.
const OLD_ENVELOPES: Readonly<Record<string, string>> = { "poll-reply": "poll-reply", "replicated-record": "prepare" };

class TooLarge extends Error {}

// Streams the inflate so it stops at the cap instead of allocating whatever the link claims.
function inflateCapped(data: Uint8Array, cap: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > cap) throw new TooLarge();
    chunks.push(chunk);
    ended ||= final;
  });
  inflater.push(data, true);
  if (!ended) throw new Error("incomplete deflate stream");
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** Decodes a fragment made by encodeShareFragment, or returns null with no throw for anything else (or anything over maxBytes). */
export function decodeShareFragment(fragment: string, maxBytes = MAX_SHARED_BYTES): SharedState | null {
  if (!fragment.startsWith(SHARE_PREFIX)) return null;
  try {
    const raw = inflateCapped(fromBase64Url(fragment.slice(SHARE_PREFIX.length)), maxBytes + 4096);
    const metaLength = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(0, true);
    if (4 + metaLength > raw.length) return null;
    const meta = JSON.parse(new TextDecoder().decode(raw.subarray(4, 4 + metaLength))) as { n?: unknown; s?: unknown; e?: unknown; f?: unknown };
    const sel = Array.isArray(meta.s) && meta.s.length === 2 && meta.s.every((v) => Number.isSafeInteger(v)) ? { start: meta.s[0] as number, end: meta.s[1] as number } : null;
    const shared = { name: typeof meta.n === "string" ? meta.n : "shared input", bytes: raw.slice(4 + metaLength), selection: sel };
    const format = typeof meta.f === "string" ? meta.f : typeof meta.e === "string" ? OLD_ENVELOPES[meta.e] : undefined;
    return format ? { ...shared, format } : shared;
  } catch {
    return null;
  }
}
