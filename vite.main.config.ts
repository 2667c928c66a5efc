// Builds the Electron main process into CommonJS, out/main/index.cjs (package.json "main", from
// main/boot.ts) and the chunks it requires: what start needs in one chunk, what only some screens
// or team mode need (PostgreSQL, CSV parsing and writing) in their own, loaded when first used. CommonJS
// because Electron's main loads it with require. What must load from node_modules at run time
// stays external. `--mode bench` (test/bench/rows/first-start.ts) adds out/main/headless.cjs: the
// same services without Electron, on the same chunks, which the app itself never loads, so the
// app's build leaves it out.

import { builtinModules } from 'node:module';
import path from 'node:path';

import { defineConfig } from 'vite';

// electron is provided by the runtime; keytar and better-sqlite3 are native addons that cannot be
// bundled (electron-builder unpacks them from the asar); node-forge picks its native helpers
// at run time and is kept whole for that; electron-updater requires its updater and Electron's
// parts lazily, by platform, and is loaded only by a packaged app.
const RUNTIME_DEPENDENCIES = [
  'electron',
  'keytar',
  'better-sqlite3',
  'node-forge',
  'electron-updater',
];

function isExternal(id: string): boolean {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true;
  return RUNTIME_DEPENDENCIES.some((name) => id === name || id.startsWith(`${name}/`));
}

export default defineConfig(({ mode }) => ({
  publicDir: false,
  ssr: { noExternal: true, external: RUNTIME_DEPENDENCIES },
  build: {
    ssr: true,
    outDir: path.join(import.meta.dirname, 'out/main'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: isExternal,
      input: {
        index: path.join(import.meta.dirname, 'main/boot.ts'),
        // The CSV export's worker thread, started by path (journal-export-parallel.ts).
        'export-worker': path.join(
          import.meta.dirname,
          'main/store/sqlite/journal-export-worker.ts',
        ),
        // The journal's long reads' worker thread, started by path (journal-reader.ts).
        'reader-worker': path.join(
          import.meta.dirname,
          'main/store/sqlite/journal-reader-worker.ts',
        ),
        ...(mode === 'bench' && { headless: path.join(import.meta.dirname, 'main/headless.ts') }),
      },
      output: {
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
      },
    },
  },
}));
