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
  // Rows a call at a time (all): a call per row (iterate) costs each row a crossing into SQLite's
  // binding and back. readBatch asks for a part of a batch at a time (READ_PART).
  return (below: bigint, lo: bigint, size: number) =>
    statement.all({ ...w.params, below, lo, size }) as unknown[][];
}

/**
 * Rows read by one call: a whole batch's rows read at once stay alive while the batch is made
 * into lines, long enough for V8 to move them out of its young heap, and the export's memory
 * grows with them (docs/performance.md, "CSV export time").
 */
const READ_PART = 200;

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
  let last = below + 1n;
  let entries = 0;
  for (;;) {
    const want = Math.min(READ_PART, size - entries);
    const part = rows(last - 1n, slice.lo, want);
    for (const row of part) {
      csv.add(row);
      eachRow(row);
      last = row[idAt] as bigint;
    }
    entries += part.length;
    // The slice's end (fewer rows than asked, or its lowest id reached), or the batch's.
    if (part.length < want || last - 1n <= slice.lo)
      return { entries, below: last - 1n, end: true };
    if (entries === size) return { entries, below: last - 1n, end: false };
  }
}

/** A group of rows of the same five values, its count and the sum of their amounts. */
type Group = TotalsGroup & { n: number; minor: bigint | null };

/** A grouped column's numbering: each distinct value's number, and the last value seen. */
interface Numbering {
  numbers: Map<unknown, number>;
  last: unknown;
  lastNumber: number;
}

/**
 * The bits of a group's key per column (currency, action, operation, state, status): 29 in all,
 * so the key is a small integer, which a Map hashes without allocating. A column with more
 * values than its bits hold keys its groups by text instead: a safeguard, since a journal holds
 * a few of each.
 */
const BITS = [8, 6, 6, 4, 5] as const;

/**
 * The totals of rows, kept as the groups a TotalsTally adds: the worker's part of them, sent
 * with each batch. A row's group is found by numbers, not by a key built of
 * its five values: each value is numbered by its column (a row mostly repeats the row before's
 * values, which a comparison finds without hashing the strings SQLite made afresh), and the
 * five numbers are one integer key.
 */
export class GroupTally {
  private groups = new Map<number | string, Group>();
  private readonly currencies = numbering();
  private readonly actions = numbering();
  private readonly operations = numbering();
  private readonly states = numbering();
  private readonly statuses = numbering();

  add(row: readonly unknown[]): void {
    const c = numberOf(this.currencies, row[CURRENCY_AT]);
    const a = numberOf(this.actions, row[ACTION_AT]);
    const o = numberOf(this.operations, row[OPERATION_AT]);
    const t = numberOf(this.states, row[STATE_AT]);
    const u = numberOf(this.statuses, row[STATUS_AT]);
    const key =
      c >> BITS[0] || a >> BITS[1] || o >> BITS[2] || t >> BITS[3] || u >> BITS[4]
        ? `${c},${a},${o},${t},${u}`
        : (((((((u << BITS[3]) | t) << BITS[2]) | o) << BITS[1]) | a) << BITS[0]) | c;
    const minor = row[MINOR_AT] as bigint | null;
    const group = this.groups.get(key);
    if (group) {
      group.n += 1;
      if (minor !== null) group.minor = (group.minor ?? 0n) + minor;
    } else {
      this.groups.set(key, {
        currency: row[CURRENCY_AT] as string | null,
        action: row[ACTION_AT] as string | null,
        operation: row[OPERATION_AT] as string,
        state: row[STATE_AT] as string,
        status: row[STATUS_AT] as string | null,
        n: 1,
        minor,
      });
    }
  }

  /** The groups added since the last take. */
  take(): TotalsGroup[] {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    return groups;
  }
}

function numbering(): Numbering {
  return { numbers: new Map(), last: undefined, lastNumber: -1 };
}

/** A value's number in its column, given the first time it is met. */
function numberOf(numbering: Numbering, value: unknown): number {
  if (value === numbering.last) return numbering.lastNumber;
  let number = numbering.numbers.get(value);
  if (number === undefined) numbering.numbers.set(value, (number = numbering.numbers.size));
  numbering.last = value;
  numbering.lastNumber = number;
  return number;
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
