// The HTTP security headers of the page, derived from the one Content-Security-Policy written in
// index.html's <meta> (which stays there for file:// use). vite.config.ts sends them from the dev and
// preview servers (so `npm start` and `npm run dev` too) and writes them to dist/_headers for static
// hosts that read that file (Netlify, Cloudflare Pages). Plain ESM, no dependencies.

/** The CSP <meta> of index.html; the policy contains single quotes, so the attribute is double-quoted. */
export const CSP_META_RE = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i;

/**
 * The policy of index.html's CSP meta, or an error if the tag is missing.
 * @param {string} html
 * @returns {string}
 */
export function metaPolicy(html) {
  const meta = CSP_META_RE.exec(html);
  if (!meta || meta[1] === undefined) throw new Error('index.html must contain a <meta http-equiv="Content-Security-Policy"> tag');
  return meta[1];
}

// A <meta> CSP cannot say frame-ancestors (browsers ignore it there): only a header keeps the page out of frames.
const NOT_FRAMED = "frame-ancestors 'none'";
const OTHERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * The headers for a production build: the meta's policy plus frame-ancestors, and the others.
 * @param {string} policy
 * @returns {Record<string, string>}
 */
export function securityHeaders(policy) {
  return { "Content-Security-Policy": `${policy}; ${NOT_FRAMED}`, ...OTHERS };
}

/**
 * The headers for the dev server, whose inline scripts only the meta (with their hashes, see
 * cspPlugin) allows: its header policy says frame-ancestors alone; both policies apply.
 * @returns {Record<string, string>}
 */
export function devSecurityHeaders() {
  return { "Content-Security-Policy": NOT_FRAMED, ...OTHERS };
}

/**
 * The same headers as a `_headers` file: every path of the site gets them.
 * @param {Record<string, string>} headers
 */
export function headersFile(headers) {
  return ["/*", ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`), ""].join("\n");
}
