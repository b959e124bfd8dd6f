/**
 * Escaping of input-derived text (names, payload previews, header keys and values, messages) for the
 * Markdown and plain-text reports: nothing from an input may become HTML, a link, emphasis or a
 * broken table in a tracker, and no control or bidi character may reorder or hide what is shown.
 */
import { visibleText } from "../../lib/text-escape.ts";

/**
 * Inline Markdown text that renders as exactly these characters: HTML-significant characters as
 * entities; backslash before what could start emphasis, code, links, strikethrough, math or a table
 * cell (`\\ \` * _ [ ] | ~ $ #`); autolink triggers (`://`, `www.`, `@`) broken; line breaks as spaces.
 * Inline only: the callers never start a line with input text, so `-`, `+` and `1.` stay as they are.
 */
export function mdText(s: string): string {
  return visibleText(s.replace(/\r\n|\r|\n/g, " "))
    .replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
    .replace(/[\\`*_[\]|~$#!@]/g, (c) => "\\" + c)
    .replace(/:\/\//g, "&#58;//")
    .replace(/(www)\./gi, "$1&#46;");
}

/** A fenced code block whose fence is longer than any backtick run in the text, so the text cannot close it. */
export function mdFence(text: string, info = "text"): string {
  const longest = Array.from(text.matchAll(/`+/g), (m) => m[0].length).reduce((m, n) => Math.max(m, n), 2);
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

/** A link target in angle brackets, with the characters that could end it percent-encoded. */
export function mdUrl(url: string): string {
  return "<" + url.replace(/[<>\s\\]/g, (c) => encodeURIComponent(c)) + ">";
}
