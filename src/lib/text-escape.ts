/** Escapes for text that comes from an input (file names, messages, payloads) before it reaches a terminal or a Markdown report. */

/* eslint-disable no-control-regex -- finding control characters is what these expressions are for */
// C0 controls, DEL, C1 controls (a terminal may read U+009B as CSI), line and paragraph separators,
// and the bidirectional controls that can make a name read as something else.
const UNSAFE_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

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

// Characters that start Markdown or HTML syntax inline; GFM tables also split cells on "|".
const MARKDOWN_SPECIAL_RE = /[\\`*_[\]{}<>|~!#&]/g;
const MARKDOWN_ENTITY: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;" };

/**
 * One input-derived value as literal inline Markdown text (safe in a table cell or a heading):
 * controls shown as escapes, HTML characters as entities, Markdown punctuation backslash-escaped.
 */
export function markdownText(s: string): string {
  return terminalText(s).replace(MARKDOWN_SPECIAL_RE, (ch) => MARKDOWN_ENTITY[ch] ?? "\\" + ch);
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
export function markdownFence(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}
