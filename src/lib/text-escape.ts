/**
 * The one escaper for text that comes from an input (file names, payload text, user-header strings, messages)
 * before any host shows it: the CLI's text, the SVG pictures, the reports and the page. A control or bidi
 * character is shown as a visible \xNN or \uNNNN escape, never passed through raw.
 */

/* eslint-disable no-control-regex -- finding control characters is what these expressions are for */
// C0 controls, DEL, C1 controls (a terminal may read U+009B as CSI), line and paragraph separators,
// zero-width characters, and the bidirectional controls that can make a name read as something else.
const UNSAFE_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const UNSAFE_BUT_NEWLINE_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

const escapeCode = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? "\\x" + code.toString(16).padStart(2, "0") : "\\u" + code.toString(16).padStart(4, "0");
};

/** One input-derived value on one line: controls (newlines too) shown as \xNN or \uNNNN, a backslash doubled so an escape cannot be faked. */
export function visibleText(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(UNSAFE_RE, escapeCode);
}

/** Input-derived text shown over several lines (a message, a payload's text): its line feeds stay, every other control is escaped as visibleText does. */
export function visibleLines(s: string): string {
  return s.replace(UNSAFE_BUT_NEWLINE_RE, escapeCode);
}
