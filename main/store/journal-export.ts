// The journal's CSV export on SQLite: one consistent view of the journal, made into UTF-8 chunks
// in order, on two threads when the journal is large.
//
// One export = one snapshot. The export reads on its own read-only connection, in one read
// transaction held from its first read to its end (WAL lets the app's connection, and other
// processes, keep writing meanwhile; the checkpoint waits for the export). So an entry written
// or answered after the export started is not in the file, not even in part, and the count
// that progress shows is of the same snapshot. (Fixing only the newest id would still let an
// older entry appear in a state it reached later than the others.)
//
// Two threads: the main thread and the export worker (export-worker.ts) each read slices of ids
// (export-slices.ts) on their own connection; the main thread hands the chunks over in order. A
// worker takes 0.1-0.5 s to start, so the main thread starts alone and the worker joins once
// its own read transaction is open, and only if that snapshot is the main thread's: a third
// connection reads PRAGMA data_version before the main thread's snapshot opens and again once
// the worker's is open, and if any connection committed in between the worker is sent away
// and the main thread does the rest alone. The worker also counts the entries, so the main
// thread never waits on a count of a million index entries. If the worker fails (or cannot
// start), the main thread makes its slices itself; a real problem with the file then reaches
// the user as the main thread's StoreError.
//
// A filtered export (usually far smaller) runs on the main thread alone, in batches of the
// filter's rows (journal-pages.ts rawBatches), in the same kind of snapshot; an in-memory
// database (tests) cannot be opened twice and is read on its own connection.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import Database from 'better-sqlite3';

import { BUSY_TIMEOUT_MS, type Db } from './database';
import { CSV_SOURCE_COLUMNS, RawCsvChunks, type CsvChunk } from './csv';
import {
  SliceReader,
  sliceAt,
  sliceCount,
  snapshotIds,
  type FromExportWorker,
  type Slice,
  type SnapshotIds,
  type ToExportWorker,
} from './export-slices';
import { JournalPages, whereClause, type JournalFilterShape } from './journal-pages';
import { defaultErrorMapper, typedDb } from './typed-db';

export interface ExportThreading {
  /**
   * The export worker starts when the journal's ids span at least this many (about as many
   * entries): below, the main thread is done before a worker could help. Default 20,000.
   */
  workerFromIds?: number;
  /** The main thread waits for the worker before its first slice (tests: both make slices). */
  waitForWorker?: boolean;
}

const WORKER_FROM_IDS = 20_000;
/** Slices the worker is given at once: one it makes, one waiting, so it never idles. */
const WORKER_DEPTH = 2;
/** Slices made ahead of the one the file waits for: memory holds at most this many chunks. */
const AHEAD = 8;

/** The filter's CSV chunks (without the header) from one snapshot of the journal on `db`'s file. */
export async function* snapshotCsvChunks(
  db: Db,
  filter: JournalFilterShape,
  size: number,
  threading: ExportThreading = {},
): AsyncGenerator<CsvChunk> {
  if (db.memory) {
    yield* connectionCsvChunks(db, filter, size);
    return;
  }
  const file = db.name;
  const observer = openReadOnly(file);
  let reader: Db | undefined;
  let worker: ExportWorker | undefined;
  try {
    const before = dataVersion(observer);
    reader = openReadOnly(file);
    reader.exec('BEGIN');
    if (whereClause(filter).where !== '') {
      observer.close();
      yield* connectionCsvChunks(reader, filter, size);
      return;
    }
    const ids = snapshotIds(reader);
    if (ids.newest === null || ids.oldest === null) {
      yield { content: '', entries: 0, total: 0 };
      return;
    }
    const span = { newest: ids.newest, oldest: ids.oldest };
    const slices = sliceCount(span);
    if (span.newest - span.oldest + 1n >= BigInt(threading.workerFromIds ?? WORKER_FROM_IDS)) {
      worker = ExportWorker.start(file);
    }
    const own = new SliceReader(reader);
    const results = new Map<number, { bytes: Uint8Array; entries: number }>();
    let total: number | undefined;
    let written = 0;
    let emit = 0; // the slice the file needs next
    let next = 0; // the first slice nobody has taken
    if (worker && threading.waitForWorker) await worker.started();

    while (emit < slices) {
      if (worker) {
        const news = worker.take();
        for (const [index, result] of news.results) results.set(index, result);
        // The worker joins only if its snapshot is this one: same ids, and no commit by any
        // connection between this snapshot's start and the worker's.
        if (news.ready) {
          const same =
            news.ready.ids.newest === ids.newest &&
            news.ready.ids.oldest === ids.oldest &&
            dataVersion(observer) === before;
          if (same) {
            total = news.ready.total;
            yield { content: '', entries: 0, total };
          } else worker.stop();
        }
      }
      // Without a worker to count, the count is made here (a small journal, or the rare export
      // whose worker failed or saw another snapshot).
      if (total === undefined && !worker?.alive) {
        total = countAll(reader);
        yield { content: '', entries: 0, total };
      }
      const ready = results.get(emit);
      if (ready) {
        results.delete(emit);
        written += ready.entries;
        yield { content: ready.bytes, entries: ready.entries };
        emit++;
        continue;
      }
      if (worker?.working) {
        while (worker.inFlight.size < WORKER_DEPTH && next < slices && next < emit + AHEAD) {
          worker.send(sliceAt(span, next++));
        }
      }
      if (!worker?.inFlight.has(emit)) {
        // Nobody has it (or the worker that had it is gone): the main thread makes it now.
        results.set(emit, own.read(sliceAt(span, emit)));
        if (emit === next) next++;
        continue;
      }
      if (next < slices && next < emit + AHEAD) {
        // The worker has the slice the file needs next: make a later one meanwhile, then let
        // the worker's answers in.
        const index = next++;
        results.set(index, own.read(sliceAt(span, index)));
        await turn();
        continue;
      }
      await worker.news();
    }
    // The worker never got to count (the main thread was done first): the same snapshot's
    // entries are the ones written.
    if (total === undefined) yield { content: '', entries: 0, total: written };
  } finally {
    worker?.stop();
    if (observer.open) observer.close();
    if (reader?.open) {
      if (reader.inTransaction) reader.exec('ROLLBACK');
      reader.close();
    }
  }
}

/**
 * The export on one connection, main thread only: the count, then batches of `size` of the
 * filter's rows, newest first (rows straight into UTF-8, csv.ts RawCsvChunks). On the export's
 * own connection this is inside its read transaction; on an in-memory database, whose
 * connection the app also writes on, each batch is read whole at once and entries newer than
 * the first batch are left out.
 */
async function* connectionCsvChunks(
  db: Db,
  filter: JournalFilterShape,
  size: number,
): AsyncGenerator<CsvChunk> {
  const pages = new JournalPages(db);
  yield { content: '', entries: 0, total: pages.count(filter) };
  const csv = new RawCsvChunks();
  const add = (row: readonly unknown[]) => csv.add(row);
  for (const entries of pages.rawBatches(filter, size, CSV_SOURCE_COLUMNS, add)) {
    yield { content: csv.take(), entries };
  }
}

/** A read-only connection to the journal's file, its errors StoreErrors naming the file. */
function openReadOnly(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  return typedDb(db, defaultErrorMapper(file));
}

function dataVersion(db: Db): bigint {
  return BigInt(db.pragma('data_version', { simple: true }) as number);
}

function countAll(db: Db): number {
  return Number(db.prepare('SELECT COUNT(*) FROM journal').pluck().get());
}

/** Lets the worker's messages (and the file's writes) in between two slices. */
function turn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Where the export worker's code is: beside the TypeScript sources (tests, `npm run bench`: run
 * through tsx, as the process itself is), or the bundle's out/main/export-worker.cjs beside
 * index.cjs (this code is in index.cjs or in a chunk under it). Undefined if it is not there.
 */
function workerEntry(): { url: URL; execArgv?: string[] } | undefined {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return { url: new URL('./export-worker.ts', here), execArgv: ['--import', 'tsx'] };
  }
  for (const candidate of ['./export-worker.cjs', '../export-worker.cjs']) {
    const url = new URL(candidate, here);
    if (existsSync(fileURLToPath(url))) return { url };
  }
  return undefined;
}

type Ready = { ids: SnapshotIds; total: number };
type Made = [index: number, made: { bytes: Uint8Array; entries: number }];

/** One export's worker thread, seen from the main thread. */
class ExportWorker {
  /** Slices sent and not yet answered. */
  readonly inFlight = new Set<number>();
  private state: 'starting' | 'working' | 'gone' = 'starting';
  private readyAnswer: Ready | undefined;
  private answers: Made[] = [];
  private wake: (() => void) | undefined;

  private constructor(private readonly thread: Worker) {
    thread.unref(); // an export abandoned without its end never keeps the process alive
    thread.on('message', (message: FromExportWorker) => this.receive(message));
    thread.on('error', () => this.gone());
    thread.on('exit', () => this.gone());
  }

  static start(file: string): ExportWorker | undefined {
    const entry = workerEntry();
    if (!entry) return undefined;
    try {
      return new ExportWorker(
        new Worker(entry.url, {
          workerData: { file, busyTimeoutMs: BUSY_TIMEOUT_MS },
          ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
        }),
      );
    } catch {
      return undefined;
    }
  }

  /** Starting or working: not failed, exited or sent away. */
  get alive(): boolean {
    return this.state !== 'gone';
  }

  /** Its snapshot is open (and, once taken, was found to be the export's). */
  get working(): boolean {
    return this.state === 'working';
  }

  /** Resolves once it is ready or gone. */
  async started(): Promise<void> {
    while (this.state === 'starting') await this.news();
  }

  send(slice: Slice): void {
    this.inFlight.add(slice.index);
    this.thread.postMessage({ kind: 'slice', slice } satisfies ToExportWorker);
  }

  /** The slices made since the last take, and its ready message once. */
  take(): { results: Made[]; ready?: Ready } {
    const results = this.answers;
    const ready = this.readyAnswer;
    this.answers = [];
    this.readyAnswer = undefined;
    return ready ? { results, ready } : { results };
  }

  /** Resolves at its next message (now if one is waiting), or when it is gone. */
  news(): Promise<void> {
    if (this.answers.length > 0 || this.readyAnswer || this.state === 'gone') {
      return Promise.resolve();
    }
    return new Promise((resolve) => (this.wake = resolve));
  }

  stop(): void {
    if (this.state === 'gone') return;
    this.gone();
    void this.thread.terminate();
  }

  private receive(message: FromExportWorker): void {
    if (this.state === 'gone') return;
    if (message.kind === 'ready') {
      this.state = 'working';
      this.readyAnswer = { ids: message.ids, total: message.total };
    } else if (message.kind === 'slice') {
      this.inFlight.delete(message.index);
      this.answers.push([message.index, { bytes: message.bytes, entries: message.entries }]);
    } else {
      this.stop();
      return;
    }
    this.wake?.();
    this.wake = undefined;
  }

  private gone(): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    // Its slices are nobody's now: the main thread makes them (answers already in stay).
    this.inFlight.clear();
    this.wake?.();
    this.wake = undefined;
  }
}
