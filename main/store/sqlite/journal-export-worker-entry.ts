// Where the journal's worker threads get their code: the CSV export's (journal-export-worker.ts)
// and the long reads' (journal-reader-worker.ts). In the app each is a file of its own,
// out/main/<name>.cjs, its own entry in vite.main.config.ts, beside the chunk that starts it. Run
// from the sources (Vitest, tsx: tests and the bench), esbuild bundles the worker's source once
// per process into one script run as an eval'd worker: a worker under tsx's loader would
// compile every module it imports, one by one, before its first row. esbuild is named apart, so
// that the app's bundler leaves it out: only the sources use it. startWorker starts one from
// there, or says why it cannot, for its caller to go on without it.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The worker's code and how to start it, or why there is none. */
export type Entry = { url: URL } | { code: string } | { missing: string };

/** Each worker: its source beside this file, and its built file's name in out/main. */
const WORKERS = {
  export: { source: './journal-export-worker.ts', built: 'export-worker.cjs' },
  reader: { source: './journal-reader-worker.ts', built: 'reader-worker.cjs' },
} as const;

export type WorkerName = keyof typeof WORKERS;

/**
 * Readies the worker's code before the first export: in the app a look for its file, from the
 * sources the bundle (the bench readies it before it times, as the app has its file).
 */
export async function prepareExportWorker(): Promise<void> {
  await workerEntry();
}

/** The worker's entry (see the file's opening comment). */
export async function workerEntry(name: WorkerName = 'export'): Promise<Entry> {
  const worker = WORKERS[name];
  if (import.meta.url.endsWith('.ts')) return { code: await sourceBundle(worker.source) };
  // out/main/<name>.cjs, seen from out/main/index.cjs or out/main/chunks/*.cjs.
  for (const path of [`./${worker.built}`, `../${worker.built}`]) {
    const url = new URL(path, import.meta.url);
    if (existsSync(fileURLToPath(url))) return { url };
  }
  return { missing: 'the worker is not built beside the app' };
}

/** Starts the named worker with `options`, or says why it cannot (its caller goes on without it). */
export async function startWorker(
  name: WorkerName,
  options: WorkerOptions,
): Promise<Worker | { why: string }> {
  let entry: Entry;
  try {
    entry = await workerEntry(name);
  } catch (error) {
    return { why: `the worker could not be made: ${String(error)}` };
  }
  if ('missing' in entry) return { why: entry.missing };
  // Not the parent's flags (tsx's loader, when the sources run under it).
  const own = { ...options, execArgv: [] };
  try {
    return 'url' in entry
      ? new Worker(entry.url, own)
      : new Worker(entry.code, { ...own, eval: true });
  } catch (error) {
    return { why: `the worker did not start: ${String(error)}` };
  }
}

interface Bundler {
  build(options: object): Promise<{ outputFiles: { text: string }[] }>;
}

const bundled = new Map<string, Promise<string>>();

/** A worker's source and what it imports as one CommonJS script, once per process. */
function sourceBundle(source: string): Promise<string> {
  const file = fileURLToPath(new URL(source, import.meta.url));
  let bundle = bundled.get(source);
  if (bundle) return bundle;
  bundle = (import(/* @vite-ignore */ ESBUILD) as Promise<Bundler>)
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
        bundled.delete(source);
        throw error;
      },
    );
  bundled.set(source, bundle);
  return bundle;
}

/** Named apart so that the app's bundler leaves it alone: only the sources use it. */
const ESBUILD = 'esbuild';
