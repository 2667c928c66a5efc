// Builds the Electron main process into one CommonJS file, out/main/index.cjs (package.json
// "main"). CommonJS because Electron's main loads it with require; one file so the asar holds no
// loose sources. What must load from node_modules at run time stays external.

import { builtinModules } from 'node:module';
import path from 'node:path';

import { defineConfig } from 'vite';

// electron is provided by the runtime; keytar and better-sqlite3 are native addons that cannot be
// bundled (electron-builder unpacks them from the asar); node-forge picks its native helpers
// at run time and is kept whole for that.
const RUNTIME_DEPENDENCIES = ['electron', 'keytar', 'better-sqlite3', 'node-forge'];

function isExternal(id: string): boolean {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true;
  return RUNTIME_DEPENDENCIES.some((name) => id === name || id.startsWith(`${name}/`));
}

export default defineConfig({
  publicDir: false,
  ssr: { noExternal: true, external: RUNTIME_DEPENDENCIES },
  build: {
    ssr: path.join(import.meta.dirname, 'main/index.ts'),
    outDir: path.join(import.meta.dirname, 'out/main'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      external: isExternal,
      output: { format: 'cjs', entryFileNames: 'index.cjs' },
    },
  },
});
