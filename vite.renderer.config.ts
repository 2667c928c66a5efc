// Builds the React renderer into out/renderer, served at app://paydesk/ by main/protocol.ts.
// Relative asset URLs (base './') let the same build be served at app:// and by the browser
// tests' loopback server. (Not from file://: Chromium refuses module scripts from a null origin.)
// The CSP allows no inline script or style, so the build must not emit any: checked below.

import path from 'node:path';

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const INLINE_CODE = [
  { pattern: /<script\b(?![^>]*\bsrc=)[^>]*>/i, what: 'an inline <script>' },
  { pattern: /<style\b/i, what: 'an inline <style>' },
  { pattern: /\sstyle\s*=/i, what: 'a style attribute' },
  { pattern: /\son[a-z]+\s*=/i, what: 'an inline event handler' },
];

// Runs on the final page, after Vite has injected its own tags.
const refuseInlineCode: Plugin = {
  name: 'paydesk:no-inline-code',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { filename }) {
      for (const { pattern, what } of INLINE_CODE) {
        if (pattern.test(html)) {
          throw new Error(`${path.basename(filename)} contains ${what}, which the CSP blocks.`);
        }
      }
    },
  },
};

export default defineConfig({
  root: path.join(import.meta.dirname, 'renderer'),
  base: './',
  publicDir: false,
  plugins: [react(), refuseInlineCode],
  build: {
    outDir: path.join(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    // Electron 45 runs Chromium 140; the browser tests use Debian's newer Chromium.
    target: 'chrome140',
    // Source maps would ship paths outside out/; none are emitted.
    sourcemap: false,
    // Inlined data: fonts or scripts would fall outside the CSP; every asset stays a file.
    assetsInlineLimit: 0,
    // Chromium supports modulepreload; the polyfill would fetch(), and connect-src is 'none'.
    modulePreload: { polyfill: false },
  },
});
