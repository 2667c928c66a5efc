// Where the CSV export's worker thread (journal-export-worker.ts) gets its code. In the app it is
// out/main/export-worker.cjs, its own entry in vite.main.config.ts, beside the chunk that starts
// it. Run from the sources (Vitest, tsx: tests and the bench), esbuild bundles
// journal-export-worker.ts once per process into one script run as an eval'd worker: a worker
// under tsx's loader spends a quarter of a second compiling before its first row. esbuild is
// named apart, so that the app's bundler leaves it out: only the sources use it.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The worker's code and how to start it, or why there is none. */
export type Entry = { url: URL } | { code: string } | { missing: string };

/**
 * Readies the worker's code before the first export: in the app a look for its file, from the
 * sources the bundle (the bench readies it before it times, as the app has its file).
 */
export async function prepareExportWorker(): Promise<void> {
  await workerEntry();
}

/** The worker's entry (see the file's opening comment). */
export async function workerEntry(): Promise<Entry> {
  if (import.meta.url.endsWith('.ts')) return { code: await sourceBundle() };
  // out/main/export-worker.cjs, seen from out/main/index.cjs or out/main/chunks/*.cjs.
  for (const path of ['./export-worker.cjs', '../export-worker.cjs']) {
    const url = new URL(path, import.meta.url);
    if (existsSync(fileURLToPath(url))) return { url };
  }
  return { missing: 'the worker is not built beside the app' };
}

interface Bundler {
  build(options: object): Promise<{ outputFiles: { text: string }[] }>;
}

let bundled: Promise<string> | undefined;

/** journal-export-worker.ts and what it imports as one CommonJS script, once per process. */
function sourceBundle(): Promise<string> {
  const file = fileURLToPath(new URL('./journal-export-worker.ts', import.meta.url));
  bundled ??= (import(/* @vite-ignore */ ESBUILD) as Promise<Bundler>)
    .then((esbuild) =>
      esbuild.build({
        entryPoints: [file],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node22',
        write: false,
        logLevel: 'silent',
        external: ['better-sqlite3', 'csv-stringify'],
      }),
    )
    .then(
      // An eval'd worker's require starts from the working folder: this one from the source's.
      ({ outputFiles }) =>
        `(function (require) {\n${outputFiles[0]?.text ?? ''}\n})(require('node:module').createRequire(${JSON.stringify(file)}));`,
      (error: unknown) => {
        bundled = undefined;
        throw error;
      },
    );
  return bundled;
}

/** Named apart so that the app's bundler leaves it alone: only the sources use it. */
const ESBUILD = 'esbuild';
