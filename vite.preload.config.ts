// Builds the preload into one self-contained CommonJS file, out/preload/index.cjs. A sandboxed
// preload is a classic script whose require() knows only 'electron' (and a few polyfills), so
// everything else is bundled in, and an import of a Node module fails the build instead of the
// window at run time.

import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

import { defineConfig, type Plugin } from 'vite';

const { version } = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8'),
) as { version: string };

const refuseNodeModules: Plugin = {
  name: 'paydesk:sandboxed-preload',
  enforce: 'pre',
  resolveId(source) {
    if (source.startsWith('node:') || builtinModules.includes(source)) {
      this.error(
        `The preload runs sandboxed and cannot require '${source}'; do that work in main.`,
      );
    }
    return null;
  },
};

export default defineConfig({
  publicDir: false,
  plugins: [refuseNodeModules],
  define: { __PAYDESK_VERSION__: JSON.stringify(version) },
  build: {
    lib: {
      entry: path.join(import.meta.dirname, 'preload/index.ts'),
      formats: ['cjs'],
      fileName: () => 'index.cjs',
    },
    outDir: path.join(import.meta.dirname, 'out/preload'),
    emptyOutDir: true,
    // Electron 45 runs Chromium 140.
    target: 'chrome140',
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: ['electron'],
      output: { codeSplitting: false },
    },
  },
});
