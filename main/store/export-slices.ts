// The unfiltered CSV export of the journal cut into slices of ids, newest first, each made into
// UTF-8 bytes by the same code on whichever thread reads it: the main thread, on its own
// read-only connection, or the export worker (export-worker.ts), on another. Shared by both, so
// a slice's bytes do not depend on the thread that made it. No import here may load more than
// the worker needs (it starts with every export of a large journal).

import type Database from 'better-sqlite3';

import { CSV_SOURCE_COLUMNS, RawCsvChunks } from './csv';

/** Ids per slice: about 1,000 entries (ids are never reused), 190 KB, a few milliseconds. */
export const SLICE_IDS = 1_000n;

/** The entries of ids in (lo, hi], newest first: slice `index` of an export. */
export interface Slice {
  index: number;
  hi: bigint;
  lo: bigint;
}

/** The ids of the snapshot an export reads, read in its read transaction. */
export interface SnapshotIds {
  newest: bigint | null;
  oldest: bigint | null;
}

/** Slice `index` of the ids from `oldest` to `newest`, newest first. */
export function sliceAt(ids: { newest: bigint; oldest: bigint }, index: number): Slice {
  const hi = ids.newest - BigInt(index) * SLICE_IDS;
  const floor = ids.oldest - 1n;
  return { index, hi, lo: hi - SLICE_IDS > floor ? hi - SLICE_IDS : floor };
}

/** How many slices hold the ids from `oldest` to `newest`. */
export function sliceCount(ids: { newest: bigint; oldest: bigint }): number {
  return Number((ids.newest - ids.oldest + SLICE_IDS) / SLICE_IDS);
}

/** The snapshot's newest and oldest ids (each by the table's own order, no scan). */
export function snapshotIds(db: Database.Database): SnapshotIds {
  const [newest, oldest] = db
    .prepare('SELECT (SELECT MAX(id) FROM journal), (SELECT MIN(id) FROM journal)')
    .raw(true)
    .safeIntegers(true)
    .get() as [bigint | null, bigint | null];
  return { newest, oldest };
}

/** Reads slices on one connection into CSV bytes (csv.ts RawCsvChunks: rows straight to UTF-8). */
export class SliceReader {
  private readonly statement: Database.Statement;
  private readonly csv = new RawCsvChunks();

  constructor(db: Database.Database) {
    this.statement = db
      .prepare(
        `SELECT ${CSV_SOURCE_COLUMNS.join(', ')} FROM journal
          WHERE id > @lo AND id <= @hi ORDER BY id DESC`,
      )
      .raw(true)
      .safeIntegers(true);
  }

  /** The slice's lines as UTF-8 bytes, and how many entries they are. */
  read(slice: Slice): { bytes: Uint8Array; entries: number } {
    let entries = 0;
    // Read to its end here: the connection is free again once this returns.
    for (const row of this.statement.iterate({ hi: slice.hi, lo: slice.lo }) as Iterable<
      unknown[]
    >) {
      this.csv.add(row);
      entries++;
    }
    return { bytes: this.csv.take(), entries };
  }
}

/** What the main thread asks of the export worker. */
export type ToExportWorker = { kind: 'slice'; slice: Slice };

/** What the export worker answers. */
export type FromExportWorker =
  /** Its read transaction is open: the ids and the number of entries it sees. */
  | { kind: 'ready'; ids: SnapshotIds; total: number }
  | { kind: 'slice'; index: number; bytes: Uint8Array; entries: number }
  | { kind: 'failed'; message: string };
