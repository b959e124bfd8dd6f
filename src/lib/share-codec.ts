/** The share-link fragment: the whole input (and selection) deflated with fflate, in base64url, never sent to a server. */
import { Inflate, deflateSync } from "fflate";

/** What a link carries. */
export interface SharedState {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly selection: { readonly start: number; readonly end: number } | null;
  /** The envelope id the input starts with (core/envelopes.ts); absent means plain batches. */
  readonly envelope?: string;
  /** Set when the bytes are a redacted copy: the original's SHA-256 and what was replaced. */
  readonly redacted?: { readonly originalSha256: string; readonly what: string };
  /** Set when the bytes are part of a larger input: where they sat in it, its size and SHA-256. */
  readonly part?: { readonly start: number; readonly end: number; readonly size: number; readonly sha256: string };
}

const SHA256_RE = /^[0-9a-f]{64}$/;

// Meta keys r (redacted: [sha, what]) and p (part: [start, end, size, sha]), read back only when well-formed.
function provenanceMeta(state: SharedState): Record<string, unknown> {
  return {
    ...(state.redacted ? { r: [state.redacted.originalSha256, state.redacted.what] } : {}),
    ...(state.part ? { p: [state.part.start, state.part.end, state.part.size, state.part.sha256] } : {}),
  };
}

function readProvenance(meta: { r?: unknown; p?: unknown }): Pick<SharedState, "redacted" | "part"> {
  const out: { redacted?: SharedState["redacted"]; part?: SharedState["part"] } = {};
  const r = meta.r;
  if (Array.isArray(r) && typeof r[0] === "string" && SHA256_RE.test(r[0]) && typeof r[1] === "string") out.redacted = { originalSha256: r[0], what: r[1].slice(0, 200) };
  const p = meta.p;
  if (Array.isArray(p) && p.length === 4 && p.slice(0, 3).every((v) => Number.isSafeInteger(v) && (v as number) >= 0) && typeof p[3] === "string" && SHA256_RE.test(p[3])) {
    out.part = { start: p[0] as number, end: p[1] as number, size: p[2] as number, sha256: p[3] };
  }
  return out;
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
  const meta = new TextEncoder().encode(JSON.stringify({ n: state.name, s: state.selection ? [state.selection.start, state.selection.end] : null, ...(state.envelope && state.envelope !== "none" ? { e: state.envelope } : {}), ...provenanceMeta(state) }));
  const raw = new Uint8Array(4 + meta.length + state.bytes.length);
  new DataView(raw.buffer).setUint32(0, meta.length, true);
  raw.set(meta, 4);
  raw.set(state.bytes, 4 + meta.length);
  return SHARE_PREFIX + toBase64Url(deflateSync(raw, { level: 6 }));
}

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
    const meta = JSON.parse(new TextDecoder().decode(raw.subarray(4, 4 + metaLength))) as { n?: unknown; s?: unknown; e?: unknown; r?: unknown; p?: unknown };
    const sel = Array.isArray(meta.s) && meta.s.length === 2 && meta.s.every((v) => Number.isSafeInteger(v)) ? { start: meta.s[0] as number, end: meta.s[1] as number } : null;
    const shared = { name: typeof meta.n === "string" ? meta.n : "shared input", bytes: raw.slice(4 + metaLength), selection: sel, ...readProvenance(meta) };
    return typeof meta.e === "string" ? { ...shared, envelope: meta.e } : shared;
  } catch {
    return null;
  }
}
