import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { CSP_META_RE, devSecurityHeaders, headersFile, metaPolicy, securityHeaders } from './scripts/security-headers.mjs';

// ---------------------------------------------------------------------------
// Content-Security-Policy
//
// The policy lives in index.html as a <meta http-equiv> tag, so the production
// build ships exactly what is written there (and e2e tests, which run against
// `vite preview` of that build, exercise it). The servers also send it as a
// header, with frame-ancestors 'none' (which a meta cannot carry) and the other
// security headers, and the build writes them to dist/_headers
// (scripts/security-headers.mjs derives all of them from the meta).
//
// The dev server injects inline <script type="module"> blocks (the React
// Fast Refresh preamble), which `script-src 'self'` would block. Instead of
// dropping the CSP in dev, `cspPlugin` adds the SHA-256 hash of each inline
// script Vite injected to script-src — so dev runs under the same policy,
// allowing only those exact scripts.
//
// For builds it fails loudly if the CSP meta is missing or an inline script
// slipped into the output (it would be blocked in production).
// ---------------------------------------------------------------------------

// The headers the servers send and dist/_headers holds come from the same meta policy
// (scripts/security-headers.mjs), adding frame-ancestors, which a meta cannot carry.
const SECURITY_HEADERS = securityHeaders(metaPolicy(readFileSync(new URL('./index.html', import.meta.url), 'utf8')));
const INLINE_SCRIPT_RE = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

function inlineScripts(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT_RE)].map((m) => m[1] ?? '').filter((body) => body.trim() !== '');
}

function addScriptHashes(policy: string, hashes: string[]): string {
  return policy
    .split(';')
    .map((directive) => {
      const d = directive.trim();
      return d.startsWith('script-src ') || d === 'script-src' ? `${d} ${hashes.join(' ')}` : d;
    })
    .filter(Boolean)
    .join('; ');
}

const CHARSET_META_RE = /<meta\s+charset=["']?[\w-]+["']?\s*\/?>\s*/i;
const HEAD_OPEN_RE = /<head\b[^>]*>/i;

// A CSP <meta> only governs what comes after it, and Vite (dev) prepends its
// own <script>s to <head>: put charset + CSP first in <head>.
function hoistCspMeta(html: string, cspTag: string): string {
  const charset = CHARSET_META_RE.exec(html)?.[0]?.trim();
  let out = html.replace(CSP_META_RE, '');
  if (charset) out = out.replace(CHARSET_META_RE, '');
  const head = HEAD_OPEN_RE.exec(out);
  if (!head) throw new Error('index.html has no <head>');
  const at = head.index + head[0].length;
  const indent = '\n    ';
  return out.slice(0, at) + (charset ? indent + charset : '') + indent + cspTag + out.slice(at);
}

function cspPlugin(): Plugin {
  let command: 'build' | 'serve' = 'serve';
  return {
    name: 'iggy:csp',
    configResolved(config) {
      command = config.command;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(SECURITY_HEADERS) });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const meta = CSP_META_RE.exec(html);
        if (!meta) {
          throw new Error('index.html must contain a <meta http-equiv="Content-Security-Policy"> tag');
        }
        let policy = meta[1] ?? '';
        const scripts = inlineScripts(html);
        if (command === 'build') {
          if (scripts.length > 0) {
            throw new Error(`Built index.html contains ${scripts.length} inline <script>(s), which the CSP blocks; move them to a module file.`);
          }
        } else if (scripts.length > 0) {
          const hashes = scripts.map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
          policy = addScriptHashes(policy, hashes);
        }
        return hoistCspMeta(html, `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
      },
    },
  };
}

// Only images may be inlined as data: URLs (CSP img-src allows data:). Fonts,
// WASM, JSON, etc. inlined as data: would be blocked by default-src /
// connect-src 'self', so they are always emitted as separate files.
const INLINABLE_ASSET_RE = /\.(png|jpe?g|gif|webp|avif|svg|ico)$/i;

export default defineConfig({
  plugins: [react(), cspPlugin()],
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: (filePath) => (INLINABLE_ASSET_RE.test(filePath) ? undefined : false),
    rolldownOptions: {
      output: {
        // The page's code changes with every commit, React and TanStack only when package.json does:
        // separate chunks, so none passes Vite's 500 kB warning and a rebuild leaves the libraries' files as they were.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: false,
    open: false,
    headers: devSecurityHeaders(),
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    open: false,
    headers: SECURITY_HEADERS,
  },
  test: {
    include: ['src/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
