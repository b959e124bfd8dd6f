/** The share-link fragment: the whole input (and selection) deflated with fflate, in base64url, never sent to a server. */
import { Inflate, deflateSync } from "fflate";
import { ByteReader } from "../format/reader.ts";
import { ByteWriter } from "../format/writer.ts";

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
  if (Array.isArray(r) && typeof r[0] === "string" && SHA256_RE.test(r[0]) && typeof r[1] === "string")
    out.redacted = { originalSha256: r[0], what: r[1].slice(0, 200) };
  const p = meta.p;
  if (
    Array.isArray(p) &&
    p.length === 4 &&
    p.slice(0, 3).every((v) => Number.isSafeInteger(v) && (v as number) >= 0) &&
    typeof p[3] === "string" &&
    SHA256_RE.test(p[3])
  ) {
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
  // eslint-disable-next-line no-restricted-syntax -- 32 Ki bytes at a time, bounded by the loop
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const fromBase64Url = (text: string): Uint8Array => {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

/** Encodes state as a URL fragment: [u32 meta length][meta JSON][input bytes], deflated. */
export function encodeShareFragment(state: SharedState): string {
  const meta = new TextEncoder().encode(
    JSON.stringify({
      n: state.name,
      s: state.selection ? [state.selection.start, state.selection.end] : null,
      ...(state.format && state.format !== "auto" ? { f: state.format } : {}),
      ...provenanceMeta(state),
    }),
  );
  const raw = new Uint8Array(4 + meta.length + state.bytes.length);
  new ByteWriter(raw).u32(0, meta.length);
  raw.set(meta, 4);
  raw.set(state.bytes, 4 + meta.length);
  return SHARE_PREFIX + toBase64Url(deflateSync(raw, { level: 6 }));
}

/** Why a fragment could not be opened: not a share link at all, damaged, or carrying more than a link may. */
export type ShareRefusal = "not-a-link" | "damaged" | "too-large";

/** The outcome of decoding a fragment: its state, or why not. */
export type ShareDecode = { readonly ok: true; readonly state: SharedState } | { readonly ok: false; readonly reason: ShareRefusal };

/** Base64 characters decoded per step: each step inflates at most ~1,000× its 3 KiB of deflate, so a bomb is caught within a few MiB of the cap. */
const STEP_CHARS = 4096;

// Deflate never expands input by more than a few bytes per 64 KiB block; a longer fragment is refused unread.
const maxFragmentChars = (cap: number): number => Math.ceil(((cap * 1.01 + 1024) * 4) / 3) + SHARE_PREFIX.length;
// The envelope ids of links made before formats existed, as the format names they stand for.
// A Map, not an object: "__proto__" or "constructor" in a crafted link must find nothing.
const OLD_ENVELOPES: ReadonlyMap<string, string> = new Map([
  ["poll-reply", "poll-reply"],
  ["replicated-record", "prepare"],
]);

class TooLarge extends Error {}

// Decodes the base64 a step at a time into the inflater, and stops the moment the output passes the cap.
// The last step is pushed as final, so a stream cut short anywhere is an error, not a shorter input.
function inflateCapped(text: string, cap: number): Uint8Array {
  if (text.length === 0) throw new Error("empty deflate stream");
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > cap) throw new TooLarge();
    chunks.push(chunk);
  });
  for (let at = 0; at < text.length; at += STEP_CHARS) {
    inflater.push(fromBase64Url(text.slice(at, at + STEP_CHARS)), at + STEP_CHARS >= text.length);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Decodes a fragment made by encodeShareFragment, or says why not; never throws, and never inflates past maxBytes (plus the metadata). */
export function decodeShareResult(fragment: string, maxBytes = MAX_SHARED_BYTES): ShareDecode {
  if (!fragment.startsWith(SHARE_PREFIX)) return { ok: false, reason: "not-a-link" };
  const cap = maxBytes + 4096;
  if (fragment.length > maxFragmentChars(cap)) return { ok: false, reason: "too-large" };
  const body = fragment.slice(SHARE_PREFIX.length);
  if (!/^[A-Za-z0-9_-]*$/.test(body) || body.length % 4 === 1) return { ok: false, reason: "damaged" };
  try {
    const raw = inflateCapped(body, cap);
    if (raw.length < 4) return { ok: false, reason: "damaged" };
    const metaLength = new ByteReader(raw).u32(0);
    if (4 + metaLength > raw.length) return { ok: false, reason: "damaged" };
    if (raw.length - 4 - metaLength > maxBytes) return { ok: false, reason: "too-large" };
    const meta = JSON.parse(new TextDecoder().decode(raw.subarray(4, 4 + metaLength))) as {
      n?: unknown;
      s?: unknown;
      e?: unknown;
      f?: unknown;
      r?: unknown;
      p?: unknown;
    } | null;
    if (meta === null || typeof meta !== "object") return { ok: false, reason: "damaged" };
    const bytes = raw.slice(4 + metaLength);
    // A selection is kept only where it lies in the bytes: a crafted one is dropped, not selected.
    const s = meta.s;
    const sel =
      Array.isArray(s) && s.length === 2 && Number.isSafeInteger(s[0]) && Number.isSafeInteger(s[1]) && 0 <= s[0] && s[0] <= s[1] && s[1] <= bytes.length
        ? { start: s[0] as number, end: s[1] as number }
        : null;
    const shared = { name: typeof meta.n === "string" ? meta.n : "shared input", bytes, selection: sel, ...readProvenance(meta) };
    const format = typeof meta.f === "string" ? meta.f : typeof meta.e === "string" ? OLD_ENVELOPES.get(meta.e) : undefined;
    return { ok: true, state: format ? { ...shared, format } : shared };
  } catch (err) {
    return { ok: false, reason: err instanceof TooLarge ? "too-large" : "damaged" };
  }
}

/** Decodes a fragment made by encodeShareFragment, or returns null with no throw for anything else (or anything over maxBytes). */
export function decodeShareFragment(fragment: string, maxBytes = MAX_SHARED_BYTES): SharedState | null {
  const result = decodeShareResult(fragment, maxBytes);
  return result.ok ? result.state : null;
}
