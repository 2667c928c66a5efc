// What the two threads of a parallel CSV export share (journal-export-parallel.ts on the main
// thread, journal-export-worker.ts on the worker): how the journal is cut into slices of ids,
// how a slice is read and made into lines a batch at a time, and what the worker sends back.
// Both threads read with the same statement and make lines with the same RawCsvChunks, so a
// slice's bytes are the same whichever thread made them, and the slices in order are the
// one-thread export's bytes (journal-export.ts: the filter's rows, newest first).
//
// A slice is a range of ids, not a count of rows: a thread can read slice k without reading the
// slices before it. Its width is the ids the filter spans per batch of rows on average, so most
// slices hold about a batch; one that holds more (a filter whose rows crowd some ids, dates) is
// read a batch at a time like any other, each batch its own chunk.

import type Database from 'better-sqlite3';

import { CSV_SOURCE_COLUMNS, type RawCsvChunks } from '../journal/csv';
import type { JournalFilter } from '../journal/filter';
import type { TotalsGroup, TotalsTally } from '../journal/totals';
import { whereClause } from './journal-where';

/** The ids of one slice: `lo < id <= hi`, numbered from the newest (0) down. */
export interface Slice {
  index: number;
  hi: bigint;
  lo: bigint;
}

/** One batch of a slice's lines, made by the worker. */
export interface ChunkMessage {
  type: 'chunk';
  slice: number;
  bytes: Uint8Array;
  entries: number;
  /** The totals of the batch's rows, for the export's totals file. */
  groups: TotalsGroup[];
  /** Where the rest of the slice starts (`id <= below`): the main thread resumes there. */
  below: bigint;
  /** The slice has no rows left. */
  end: boolean;
}

/** The worker's first message: its snapshot is taken (`newest`: the journal's newest id in it). */
export interface ReadyMessage {
  type: 'ready';
  newest: bigint | null;
}

export type WorkerMessage = ReadyMessage | ChunkMessage | { type: 'failed'; message: string };

/**
 * What the main thread sends: the export's work (once, first: the worker then takes its
 * snapshot), a slice to make, or that a chunk of the worker's was handed on, with its buffer
 * when its bytes were copied (the worker makes a later chunk in it).
 */
export type MainMessage =
  | { type: 'begin'; start: WorkerStart }
  | { type: 'slice'; slice: Slice }
  | { type: 'taken'; buffer?: ArrayBuffer };

/** What the worker opens when it starts, before it knows its export (journal-export-thread.ts). */
export interface WorkerData {
  file: string;
  /** SQLite's cache_size for the worker's connection (journal-export.ts EXPORT_CACHE_SIZE). */
  cacheSize: number;
}

/** The export the worker takes part in. */
export interface WorkerStart {
  filter: JournalFilter;
  size: number;
  /** Every profile id of the snapshot's journal and its name as the export writes it. */
  names: [string, string][];
}

/**
 * `count` slices of `width` ids each, from `newest` down: they hold every id from `newest` to
 * `newest - count * width + 1` once.
 */
export function slicesOf(newest: bigint, oldest: bigint, total: number, size: number): Slice[] {
  const span = newest - oldest + 1n;
  // The ids per batch of the filter's rows, on average; at least one.
  const perRow = Number(span) / Math.max(total, 1);
  const width = BigInt(Math.max(1, Math.ceil(perRow * size)));
  const slices: Slice[] = [];
  for (let hi = newest, index = 0; hi >= oldest; hi -= width, index++) {
    slices.push({ index, hi, lo: hi - width });
  }
  return slices;
}

/** The filter's rows of a slice from `below` down, at most `size` of them, newest first. */
export function sliceStatement(db: Database.Database, filter: JournalFilter) {
  const w = whereClause(filter);
  const range = 'id <= @below AND id > @lo';
  const where = w.where ? `${w.where} AND ${range}` : `WHERE ${range}`;
  const statement = db
    .prepare(
      `SELECT ${CSV_SOURCE_COLUMNS.join(', ')}, id FROM journal ${where} ORDER BY id DESC LIMIT @size`,
    )
    .raw(true)
    .safeIntegers(true);
  return (below: bigint, lo: bigint, size: number) =>
    statement.iterate({ ...w.params, below, lo, size }) as IterableIterator<unknown[]>;
}

/** What reading one batch of a slice left: its rows' count and where the slice goes on. */
export interface BatchRead {
  entries: number;
  below: bigint;
  end: boolean;
}

/**
 * Reads up to `size` of the slice's rows from `below` into `csv` (and each into `tally`, when
 * given): one batch, read to its end, so the connection is free again after it.
 */
export function readBatch(
  rows: ReturnType<typeof sliceStatement>,
  slice: Slice,
  below: bigint,
  size: number,
  csv: RawCsvChunks,
  eachRow: (row: readonly unknown[]) => void,
): BatchRead {
  const idAt = CSV_SOURCE_COLUMNS.length;
  let entries = 0;
  let last = below + 1n;
  for (const row of rows(below, slice.lo, size)) {
    csv.add(row);
    eachRow(row);
    last = row[idAt] as bigint;
    entries++;
  }
  return { entries, below: last - 1n, end: entries < size || last - 1n <= slice.lo };
}

/** The totals of rows, kept as the groups a TotalsTally adds (the worker's part of them). */
export class GroupTally {
  private groups = new Map<string, TotalsGroup & { n: number; minor: bigint | null }>();

  add(row: readonly unknown[]): void {
    const currency = row[CURRENCY_AT] as string | null;
    const action = row[ACTION_AT] as string | null;
    const operation = row[OPERATION_AT] as string;
    const state = row[STATE_AT] as string;
    const status = row[STATUS_AT] as string | null;
    const minor = row[MINOR_AT] as bigint | null;
    const key = `${currency}\u0000${action}\u0000${operation}\u0000${state}\u0000${status}`;
    const group = this.groups.get(key);
    if (group) {
      group.n += 1;
      if (minor !== null) group.minor = (group.minor ?? 0n) + minor;
    } else {
      this.groups.set(key, { currency, action, operation, state, status, n: 1, minor });
    }
  }

  /** The groups added since the last take. */
  take(): TotalsGroup[] {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    return groups;
  }
}

/** Adds a worker's groups to the export's tally. */
export function addGroups(tally: TotalsTally, groups: readonly TotalsGroup[]): void {
  for (const group of groups) tally.add(group);
}

const at = (column: (typeof CSV_SOURCE_COLUMNS)[number]): number =>
  CSV_SOURCE_COLUMNS.indexOf(column);
const CURRENCY_AT = at('currency');
const ACTION_AT = at('action');
const OPERATION_AT = at('operation');
const STATE_AT = at('state');
const STATUS_AT = at('status');
const MINOR_AT = at('amount_minor');
