// The journal's CSV export on SQLite: one consistent view of the journal, made into UTF-8 chunks
// in order, a batch at a time, the event loop turning between batches.
//
// One export = one snapshot. The export reads on its own read-only connection, in one read
// transaction held from its first read to its end (WAL lets the app's connection, and other
// processes, keep writing meanwhile; the checkpoint waits for the export's end). So an entry
// written or answered after the export started is not in the file, not even in part, and the
// count that progress shows is of the same snapshot. (Fixing only the newest id up front would
// leave each batch to be read at its own moment: an older entry could appear in a state it
// reached after the entries before it were written.)
//
// The count of a whole large journal is made in pieces (countInPieces), with turns of the
// event loop between them: one COUNT(*) over a million index entries would hold the main thread
// long enough for the window to notice.
//
// Two threads from PARALLEL_FROM entries: making the lines is most of the export's work and the
// main thread is otherwise mostly idle while a clerk exports, so a worker thread makes about
// half of them, from a snapshot proven to be this one (journal-export-parallel.ts), with the same
// bytes. The worker has a memory and a start of its own, in which the main thread makes the
// first slices; the export's small page cache (EXPORT_CACHE_SIZE) and the file's reused write
// buffers (files.ts) make room for it. It halves the main thread's share of the work and adds
// its start to the process's, so the export is faster only when the other core is free; beside
// other work the worker gives way to the main thread (figures: docs/performance.md). The save
// handler starts the worker when the export is asked for (startExportThread), while the person
// chooses the file, so its start is not in the time they wait for the file; its snapshot is
// still taken after the main reader's. Fewer entries, a worker that cannot start, is late to the
// snapshot or dies: the main thread makes the rest alone.
//
// An in-memory database (tests) cannot be opened twice, nor a file moved away from its folder
// while the app runs: they are read on the app's connection, and entries newer than the first
// batch are left out (the newest id is fixed up front).

import { openReadOnly, type Db } from './database';
import { RawCsvChunks, tallyRawRow, type CsvChunk, type ProfileName } from '../journal/csv';
import { TotalsTally } from '../journal/totals';
import { csvLineWriter } from '../csv-record';
import type { JournalFilter } from '../journal/filter';
import { JournalPages, whereClause } from './journal-pages';
import { readBatch, sliceStatement, slicesOf } from './journal-export-slices';
import type { Matches } from './journal-walks';
import {
  Helper,
  parallelCsvChunks,
  profileNames,
  writesSeen,
  type ParallelOptions,
} from './journal-export-parallel';
import { ExportThread } from './journal-export-thread';

/** Entries (about) per piece of the count of a whole journal: a few milliseconds each. */
const COUNT_PIECE = 65_536;
/** Ids up to which the whole journal is counted at once (COUNT(*)'s fast path, see countInPieces). */
const WHOLE_COUNT_SPAN = 262_144;
/** The most pieces a count is cut into, however far apart the ids are. */
const MAX_COUNT_PIECES = 4_096;

/**
 * SQLite's page cache of an export's connections, in KiB (negative: a size, not pages). A read
 * of the journal from end to end meets each page once; better-sqlite3's default cache (16 MiB)
 * would fill with pages never read again and stay resident to the end of the export.
 */
export const EXPORT_CACHE_SIZE = -256;
/** Exports of fewer entries than this are made on the main thread alone. */
const PARALLEL_FROM = 20_000;

export interface ExportOptions extends ParallelOptions {
  /** The fewest entries an export shares with a worker thread (tests: fewer). */
  parallelFrom?: number;
  /**
   * A worker thread started before the export (startExportThread), used if the export is shared;
   * the export ends it either way.
   */
  thread?: ExportThread;
}

/**
 * Starts the worker thread of an export of `db`'s journal ahead of the export, while its file is
 * chosen, when the journal may be large enough to share it (its span of ids is at least its
 * count): undefined otherwise. Whoever starts it ends it (ExportThread.end) if no export takes
 * it; unused, it ends itself after IDLE_MS.
 */
export function startExportThread(
  db: Db,
  options: Pick<ExportOptions, 'parallelFrom' | 'onWorker'> & { idleMs?: number } = {},
): ExportThread | undefined {
  if (db.memory || idSpan(db) < (options.parallelFrom ?? PARALLEL_FROM)) return undefined;
  return new ExportThread(
    { file: db.name, cacheSize: EXPORT_CACHE_SIZE },
    options.onWorker,
    options.idleMs,
  );
}

/** The filter's CSV chunks (without the header) from one snapshot of the journal on `db`'s file. */
export async function* snapshotCsvChunks(
  db: Db,
  filter: JournalFilter,
  size: number,
  profileName: ProfileName = (id) => id,
  options: ExportOptions = {},
): AsyncGenerator<CsvChunk> {
  let reader: Db | undefined;
  try {
    reader = db.memory ? undefined : openReadOnly(db.name);
  } catch {
    // The file is no longer where the app opened it (moved away while the app runs): the
    // app's own connection still reads it, as every export did before.
  }
  if (!reader) {
    options.thread?.end();
    yield* connectionCsvChunks(db, filter, size, profileName);
    return;
  }
  let helper: Helper | undefined;
  try {
    // What the app had written before the snapshot: a worker's snapshot is the same only if
    // this has not changed once it has taken it (journal-export-parallel.ts).
    const seen = writesSeen(db);
    // Deferred: the snapshot is the one the first read sees, and lasts to the ROLLBACK.
    reader.pragma(`cache_size = ${EXPORT_CACHE_SIZE}`);
    reader.exec('BEGIN');
    const parallelFrom = options.parallelFrom ?? PARALLEL_FROM;
    // The worker starts while the entries are counted, when there may be enough of them: the
    // journal's span of ids is at least its count, and a count of a few is quick.
    let names: [string, string][] = [];
    if (seen !== undefined && idSpan(reader) >= parallelFrom) {
      names = profileNames(reader, profileName);
      helper = new Helper(
        db,
        seen,
        { file: db.name, cacheSize: EXPORT_CACHE_SIZE },
        { filter, size, names },
        options.thread,
        options.onWorker,
      );
    }
    const matches = await matchesOf(reader, filter);
    yield { content: '', entries: 0, total: matches.total };
    if (helper && matches.total >= parallelFrom) {
      yield* parallelCsvChunks(helper, reader, filter, size, matches, names, profileName, options);
    } else {
      helper?.stop();
      yield* rowChunks(reader, filter, size, profileName, matches);
    }
  } finally {
    helper?.stop();
    options.thread?.end();
    if (reader.inTransaction) reader.exec('ROLLBACK');
    reader.close();
  }
}

/** Ids from the journal's oldest to its newest (0 when it is empty): at least its count. */
function idSpan(db: Db): number {
  const end = (which: 'MIN' | 'MAX') =>
    db.prepare(`SELECT ${which}(id) FROM journal`).pluck().safeIntegers(true).get() as
      bigint | null;
  const oldest = end('MIN');
  const newest = end('MAX');
  return oldest === null || newest === null ? 0 : Number(newest - oldest + 1n);
}

/**
 * The filter's count and the ids its rows lie between: of a whole journal counted in pieces,
 * with turns of the event loop between, its ends by two index seeks.
 */
async function matchesOf(db: Db, filter: JournalFilter): Promise<Matches> {
  if (whereClause(filter).where !== '') return new JournalPages(db).matches(filter);
  const total = await countInPieces(db);
  const end = (which: 'MIN' | 'MAX') =>
    db.prepare(`SELECT ${which}(id) FROM journal`).pluck().safeIntegers(true).get() as
      bigint | null;
  return { total, newest: end('MAX'), oldest: end('MIN') };
}

/**
 * The export on one connection: the count (a chunk that says the total), then the rows
 * (rowChunks).
 */
async function* connectionCsvChunks(
  db: Db,
  filter: JournalFilter,
  size: number,
  profileName: ProfileName,
): AsyncGenerator<CsvChunk> {
  const matches = await matchesOf(db, filter);
  yield { content: '', entries: 0, total: matches.total };
  yield* rowChunks(db, filter, size, profileName, matches);
}

/**
 * Batches of up to `size` of the filter's rows, newest first, each read to its end and turned
 * straight into UTF-8 (csv.ts RawCsvChunks, its records written by csv-record.ts), and last the
 * totals of the lines written, added up as they went (tallyRawRow). Read by slices of ids
 * between the matches' ends, as the two threads of a large export read them
 * (journal-export-slices.ts): each batch is a range of ids, walked in the id's order, so a
 * filter that SQLite would serve by another index (dates) is never gathered and sorted again
 * for every batch.
 */
async function* rowChunks(
  db: Db,
  filter: JournalFilter,
  size: number,
  profileName: ProfileName,
  matches: Matches,
): AsyncGenerator<CsvChunk> {
  const csv = new RawCsvChunks(await csvLineWriter(), profileName);
  const tally = new TotalsTally();
  const { newest, oldest, total } = matches;
  const slices = newest === null || oldest === null ? [] : slicesOf(newest, oldest, total, size);
  const rows = sliceStatement(db, filter);
  for (const slice of slices) {
    for (let below = slice.hi; ;) {
      const read = readBatch(rows, slice, below, size, csv, (row) => tallyRawRow(tally, row));
      if (read.entries > 0) yield csv.takeLent(read.entries);
      if (read.end) break;
      below = read.below;
    }
  }
  yield { content: '', entries: 0, totals: tally.totals() };
}

/**
 * COUNT(*) of the whole journal. Up to `wholeUpTo` ids it is one COUNT(*) without a WHERE,
 * which SQLite answers from the page headers of its smallest index without reading an entry (a
 * few milliseconds). Above that it is made in ranges of ids of about `piece` entries each, with a
 * turn of the event loop between ranges: journal_ids (the id alone, the journal's smallest index)
 * serves each range; the ranges, from the newest id down and last everything below, hold every
 * id once, so the sum is the exact count whatever gaps the ids have. Ids far apart make fewer,
 * larger ranges, at most MAX_COUNT_PIECES.
 */
export async function countInPieces(
  db: Db,
  piece = COUNT_PIECE,
  wholeUpTo = WHOLE_COUNT_SPAN,
): Promise<number> {
  // Two queries: SQLite finds MIN or MAX alone at an end of the index, both at once by a scan.
  const end = (which: 'MIN' | 'MAX') =>
    db.prepare(`SELECT ${which}(id) FROM journal`).pluck().safeIntegers(true).get() as
      bigint | null;
  const oldest = end('MIN');
  const newest = end('MAX');
  if (oldest === null || newest === null) return 0;
  const span = newest - oldest + 1n;
  if (span <= BigInt(wholeUpTo)) {
    return Number(db.prepare('SELECT COUNT(*) FROM journal').pluck().get());
  }
  const step = bigMax(BigInt(piece), span / BigInt(MAX_COUNT_PIECES) + 1n);
  const between = db
    .prepare('SELECT COUNT(*) FROM journal WHERE id >= ? AND id < ?')
    .pluck()
    .safeIntegers(true);
  const below = db.prepare('SELECT COUNT(*) FROM journal WHERE id < ?').pluck().safeIntegers(true);
  let total = 0n;
  let top = newest + 1n; // the ids below `top` are still to count
  while (top - step > oldest) {
    total += between.get(top - step, top) as bigint;
    top -= step;
    await turn();
  }
  return Number(total + (below.get(top) as bigint));
}

const bigMax = (a: bigint, b: bigint): bigint => (a > b ? a : b);

function turn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
