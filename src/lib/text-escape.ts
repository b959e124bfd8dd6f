/** Escapes for text that comes from an input (file names, messages, payloads) before it reaches a terminal (core/report/markdown.ts builds the Markdown escapes on it). */

/* eslint-disable no-control-regex -- finding control characters is what these expressions are for */
// C0 controls, DEL, C1 controls (a terminal may read U+009B as CSI), line and paragraph separators,
// and the bidirectional controls that can make a name read as something else.
const UNSAFE_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const UNSAFE_BUT_NEWLINE_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

const escapeCode = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? "\\x" + code.toString(16).padStart(2, "0") : "\\u" + code.toString(16).padStart(4, "0");
};

/** One input-derived value for a terminal line: controls (newlines too) shown as \xNN or \uNNNN, a backslash doubled so an escape cannot be faked. */
export function terminalText(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(UNSAFE_RE, escapeCode);
}

/** A whole message for a terminal, whose own line breaks stay: every other control character shown as an escape. */
export function terminalLines(s: string): string {
  return s.replace(UNSAFE_BUT_NEWLINE_RE, escapeCode);
}
