/**
 * The batch builder's form as plain data, and the pure reducer that edits it
 * (add, remove and reorder messages and user headers; switch payload modes).
 * Everything is text as typed: form-to-spec.ts validates it and turns it into a build spec.
 */
import { HEADER_KINDS } from "../../format/user-headers.ts";
import { bytesToHex } from "../../format/values.ts";

/** How a payload editor's text is read. */
export type PayloadMode = "text" | "json" | "hex";

/** The payload modes in menu order, with their labels. */
export const PAYLOAD_MODES: readonly { readonly id: PayloadMode; readonly label: string }[] = [
  { id: "text", label: "Text" },
  { id: "json", label: "JSON" },
  { id: "hex", label: "Hex" },
];

/** A user header value kind: HEADER_KINDS without the reserved kind 0. */
export type HeaderKindName = Exclude<(typeof HEADER_KINDS)[number], "">;

/** The value kinds 1..15 in kind-number order. */
export const VALUE_KINDS = HEADER_KINDS.slice(1) as readonly HeaderKindName[];

/** One user header row: a string key, the value's kind, and the value as typed. */
export interface HeaderRow {
  /** Stable identity for React keys and focus; not part of the batch. */
  readonly uid: number;
  readonly key: string;
  readonly kind: HeaderKindName;
  readonly value: string;
}

/** One message being composed. */
export interface MessageForm {
  readonly uid: number;
  readonly payloadMode: PayloadMode;
  readonly payload: string;
  /** "auto": a fresh UUIDv7 at build time; "given": the id text below. */
  readonly idMode: "auto" | "given";
  /** A UUID, a 0x-prefixed u128 or a decimal u128 (used when idMode is "given"). */
  readonly id: string;
  /** Microseconds after origin_timestamp, as typed. */
  readonly timestampDelta: string;
  readonly headers: readonly HeaderRow[];
}

/** Whether the batch is what a producer sends or what the server has stamped. */
export type BatchKind = "producer" | "stamped";

/** The whole builder form. u64 values are decimal text as typed. */
export interface BuilderForm {
  readonly batchKind: BatchKind;
  readonly partitionId: string;
  readonly baseOffset: string;
  readonly baseTimestamp: string;
  readonly originTimestamp: string;
  readonly messages: readonly MessageForm[];
  /** Next uid to hand out (keeps the reducer pure). */
  readonly nextUid: number;
}

/** The editable batch-level text fields. */
export type BatchField = "partitionId" | "baseOffset" | "baseTimestamp" | "originTimestamp";

/** Everything the builder can do to its form. */
export type FormAction =
  | { readonly type: "setBatchKind"; readonly batchKind: BatchKind }
  | { readonly type: "setBatchField"; readonly field: BatchField; readonly value: string }
  | { readonly type: "addMessage" }
  | { readonly type: "removeMessage"; readonly uid: number }
  | { readonly type: "moveMessage"; readonly uid: number; readonly by: -1 | 1 }
  | { readonly type: "setPayloadMode"; readonly uid: number; readonly mode: PayloadMode }
  | { readonly type: "setMessageField"; readonly uid: number; readonly field: "payload" | "id" | "timestampDelta"; readonly value: string }
  | { readonly type: "setIdMode"; readonly uid: number; readonly idMode: "auto" | "given" }
  | { readonly type: "addHeader"; readonly uid: number }
  | { readonly type: "removeHeader"; readonly uid: number; readonly headerUid: number }
  | { readonly type: "setHeader"; readonly uid: number; readonly headerUid: number; readonly patch: Partial<Pick<HeaderRow, "key" | "kind" | "value">> };

/** A new message with a short text payload, an auto id and no headers. */
export function newMessage(uid: number, payload = ""): MessageForm {
  return { uid, payloadMode: "text", payload, idMode: "auto", id: "", timestampDelta: "0", headers: [] };
}

/** The form the builder opens with: a producer batch of one message, origin_timestamp = now. */
export function initialForm(nowMicros: bigint): BuilderForm {
  const now = nowMicros.toString();
  return {
    batchKind: "producer",
    partitionId: "1",
    baseOffset: "0",
    baseTimestamp: now,
    originTimestamp: now,
    messages: [newMessage(1, "hello, iggy")],
    nextUid: 2,
  };
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Hex digits of a payload editor (0x prefix, spaces and colons ignored), or null when not even hex. */
export function parseHexText(text: string): Uint8Array | null {
  const digits = text.trim().replace(/^0x/i, "").replace(/[\s:]/g, "");
  if (digits.length % 2 !== 0 || /[^0-9a-f]/i.test(digits)) return null;
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16));
}

/**
 * The payload text after switching modes, keeping the same bytes when it can:
 * text/JSON → hex spells the UTF-8 bytes; hex → text/JSON decodes them when they are valid
 * UTF-8 (otherwise the text is kept as it is and the new mode's validation says what is wrong).
 */
export function convertPayload(text: string, from: PayloadMode, to: PayloadMode): string {
  if (from === to) return text;
  if (to === "hex") {
    if (from === "json") {
      try {
        return bytesToHex(utf8.encode(JSON.stringify(JSON.parse(text))), " ");
      } catch {
        /* not JSON yet: keep its bytes */
      }
    }
    return bytesToHex(utf8.encode(text), " ");
  }
  if (from === "hex") {
    const bytes = parseHexText(text);
    if (!bytes) return text;
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return text;
    }
  }
  return text; // text ↔ JSON: the characters stay
}

const mapMessage = (form: BuilderForm, uid: number, f: (m: MessageForm) => MessageForm): BuilderForm => ({
  ...form,
  messages: form.messages.map((m) => (m.uid === uid ? f(m) : m)),
});

/** Applies one action; returns a new form (never mutates). */
export function formReducer(form: BuilderForm, action: FormAction): BuilderForm {
  switch (action.type) {
    case "setBatchKind":
      return { ...form, batchKind: action.batchKind };
    case "setBatchField":
      return { ...form, [action.field]: action.value };
    case "addMessage": {
      const last = form.messages[form.messages.length - 1];
      // A new message follows the last one in time by default.
      const message = { ...newMessage(form.nextUid), timestampDelta: last?.timestampDelta ?? "0" };
      return { ...form, messages: [...form.messages, message], nextUid: form.nextUid + 1 };
    }
    case "removeMessage":
      return { ...form, messages: form.messages.filter((m) => m.uid !== action.uid) };
    case "moveMessage": {
      const i = form.messages.findIndex((m) => m.uid === action.uid);
      const j = i + action.by;
      if (i < 0 || j < 0 || j >= form.messages.length) return form;
      const messages = [...form.messages];
      [messages[i], messages[j]] = [messages[j] as MessageForm, messages[i] as MessageForm];
      return { ...form, messages };
    }
    case "setPayloadMode":
      return mapMessage(form, action.uid, (m) => ({ ...m, payloadMode: action.mode, payload: convertPayload(m.payload, m.payloadMode, action.mode) }));
    case "setMessageField":
      return mapMessage(form, action.uid, (m) => ({ ...m, [action.field]: action.value }));
    case "setIdMode":
      return mapMessage(form, action.uid, (m) => ({ ...m, idMode: action.idMode }));
    case "addHeader":
      return {
        ...mapMessage(form, action.uid, (m) => ({ ...m, headers: [...m.headers, { uid: form.nextUid, key: "", kind: "string", value: "" }] })),
        nextUid: form.nextUid + 1,
      };
    case "removeHeader":
      return mapMessage(form, action.uid, (m) => ({ ...m, headers: m.headers.filter((h) => h.uid !== action.headerUid) }));
    case "setHeader":
      return mapMessage(form, action.uid, (m) => ({ ...m, headers: m.headers.map((h) => (h.uid === action.headerUid ? { ...h, ...action.patch } : h)) }));
  }
}
