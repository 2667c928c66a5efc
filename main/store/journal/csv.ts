// CSV export of the journal: its columns, amounts as exact decimal text, times with their offset,
// each entry's profile by name (and its id in a column of its own); and the totals of the
// entries written, as the lines of a summary file beside it (totalsCsvLines). The records are
// written by csv-record.ts (csv-stringify: quoting, formulas defused).

import { formatMinor } from '../../gateway/amount';
import { currencyExponent, minorToText } from '../../../common/money';
import { actionLabel } from '../../../common/journal-actions';
import { isoWithOffset, isoWithOffsetByDay } from '../../../common/time';
import { csvLineWriter, joinedPlainTest, type CsvLine } from '../csv-record';
import { TotalsTally, type ActionTotals, type JournalTotals } from './totals';
import type { JournalEntry } from './types';

/** A profile's name by its id; the export's default names a profile by its id. */
export type ProfileName = (id: string) => string;
const byId: ProfileName = (id) => id;

const COLUMNS: readonly [string, (e: JournalEntry, profileName: ProfileName) => string][] = [
  // ISO 8601 in the desk's local time with its offset (2026-03-14T09:26:53.120+01:00).
  ['created_at', (e) => isoWithOffset(e.createdAt)],
  ['operator', (e) => e.operator],
  ['profile', (e, name) => name(e.profileId)],
  ['profile_id', (e) => e.profileId],
  // What the clerk did, in words; the gateway's operation name beside it.
  ['action', (e) => actionLabel(e.action, e.operation)],
  ['operation', (e) => e.operation],
  ['client_orderid', (e) => e.clientOrderId],
  ['orderid', (e) => e.orderId ?? ''],
  ['target_orderid', (e) => e.targetOrderId ?? ''],
  ['target_client_orderid', (e) => e.targetClientOrderId ?? ''],
  ['amount', (e) => (e.amountMinor === null ? '' : formatMinor(e.amountMinor, e.currency))],
  ['currency', (e) => e.currency ?? ''],
  ['reason', (e) => e.reason ?? ''],
  ['note', (e) => e.note ?? ''],
  ['email', (e) => e.email ?? ''],
  ['state', (e) => e.state],
  ['status', (e) => e.status ?? ''],
  ['error_code', (e) => e.errorCode ?? ''],
  ['error_message', (e) => e.errorMessage ?? ''],
  ['final_at', (e) => (e.finalAt ? isoWithOffset(e.finalAt) : '')],
];

/**
 * The journal column each CSV column comes from, in order (the amount from amount_minor), but
 * for the profile's name, which comes from profile_id (the column before it in the file).
 */
export const CSV_SOURCE_COLUMNS = [
  'created_at',
  'operator',
  'profile_id',
  'action',
  'operation',
  'client_orderid',
  'orderid',
  'target_orderid',
  'target_client_orderid',
  'amount_minor',
  'currency',
  'reason',
  'note',
  'email',
  'state',
  'status',
  'error_code',
  'error_message',
  'final_at',
] as const;

/** Where each of a raw row's columns is (CSV_SOURCE_COLUMNS). */
const at = (column: (typeof CSV_SOURCE_COLUMNS)[number]): number =>
  CSV_SOURCE_COLUMNS.indexOf(column);
const TOTALS_AT = {
  currency: at('currency'),
  action: at('action'),
  operation: at('operation'),
  state: at('state'),
  status: at('status'),
  minor: at('amount_minor'),
};

/**
 * Adds a row read raw in CSV_SOURCE_COLUMNS order to `tally`: the export's totals are those of
 * the lines it wrote, added up as they are written, so no query over the whole journal holds the
 * main thread at the end.
 */
export function tallyRawRow(tally: TotalsTally, row: readonly unknown[]): void {
  tally.add({
    currency: row[TOTALS_AT.currency] as string | null,
    action: row[TOTALS_AT.action] as string | null,
    operation: row[TOTALS_AT.operation] as string,
    state: row[TOTALS_AT.state] as string,
    status: row[TOTALS_AT.status] as string | null,
    n: 1,
    minor: row[TOTALS_AT.minor] as bigint | null,
  });
}

/** A stored value as cell text: NULL as nothing, integers (read as bigint) in digits. */
function textOf(value: unknown): string {
  return value === null || value === undefined
    ? ''
    : typeof value === 'bigint'
      ? value.toString()
      : (value as string);
}

/**
 * A row read raw in CSV_SOURCE_COLUMNS order (integers as bigint) as its CSV line: the
 * export's path, with no entry objects in between, and the same text as csvLines of the same
 * entry. One of these serves one export: it keeps the local dates and offsets of the last two
 * UTC days (isoWithOffsetByDay), the decimals of the last currency, and the last profile's name
 * and action's words, which per entry would cost more than the rest of the line. The line is
 * joined straight from the row and tested once (joinedPlainTest): when its cells are plain it
 * is the library's line; the rare other one is made again as cells and written by `line`.
 */
export function rawCsvLine(
  line: CsvLine,
  profileName: ProfileName = byId,
): (row: readonly unknown[]) => string {
  // One for both time columns: an entry's final time is mostly of its creation's day.
  const localTime = isoWithOffsetByDay();
  let currency: unknown = null;
  let exponent = currencyExponent(null);
  const amountOf = (minor: unknown, code: unknown): string => {
    if (minor === null || minor === undefined) return '';
    if (code !== currency) {
      currency = code;
      exponent = currencyExponent(textOf(code) || null);
    }
    return minorToText(minor as bigint, exponent);
  };
  // A journal names a few profiles: each is looked up once per export, and the last one is
  // kept apart, since neighbouring entries mostly share it.
  const names = new Map<string, string>();
  let lastId: string | undefined;
  let lastName = '';
  const nameOf = (id: string): string => {
    if (id === lastId) return lastName;
    let name = names.get(id);
    if (name === undefined) names.set(id, (name = profileName(id)));
    lastId = id;
    return (lastName = name);
  };
  // The same for the action's words, from the action and the operation.
  let lastAction: unknown = null;
  let lastOperation: string | undefined;
  let lastLabel = '';
  const labelOf = (action: unknown, operation: string): string => {
    if (action !== lastAction || operation !== lastOperation) {
      lastAction = action;
      lastOperation = operation;
      lastLabel = actionLabel((action as string | null) ?? null, operation);
    }
    return lastLabel;
  };
  const timeOf = (format: (iso: string) => string, value: unknown): string =>
    value === null || value === undefined ? '' : format(textOf(value));
  const plain = joinedPlainTest(COLUMNS.length);
  // CSV_SOURCE_COLUMNS, in order; the file's columns are one more (the profile's name).
  const cellsOf = (row: readonly unknown[]): string[] => [
    timeOf(localTime, row[0]),
    textOf(row[1]), // operator
    nameOf(textOf(row[2])), // profile (its name)
    textOf(row[2]), // profile_id
    labelOf(row[3], textOf(row[4])),
    textOf(row[4]), // operation
    textOf(row[5]), // client_orderid
    textOf(row[6]), // orderid
    textOf(row[7]), // target_orderid
    textOf(row[8]), // target_client_orderid
    amountOf(row[9], row[10]),
    textOf(row[10]), // currency
    textOf(row[11]), // reason
    textOf(row[12]), // note
    textOf(row[13]), // email
    textOf(row[14]), // state
    textOf(row[15]), // status
    textOf(row[16]), // error_code
    textOf(row[17]), // error_message
    timeOf(localTime, row[18]),
  ];
  return (row) => {
    const operation = textOf(row[4]);
    const profileId = textOf(row[2]);
    const joined =
      timeOf(localTime, row[0]) +
      ',' +
      textOf(row[1]) +
      ',' +
      nameOf(profileId) +
      ',' +
      profileId +
      ',' +
      labelOf(row[3], operation) +
      ',' +
      operation +
      ',' +
      textOf(row[5]) +
      ',' +
      textOf(row[6]) +
      ',' +
      textOf(row[7]) +
      ',' +
      textOf(row[8]) +
      ',' +
      amountOf(row[9], row[10]) +
      ',' +
      textOf(row[10]) +
      ',' +
      textOf(row[11]) +
      ',' +
      textOf(row[12]) +
      ',' +
      textOf(row[13]) +
      ',' +
      textOf(row[14]) +
      ',' +
      textOf(row[15]) +
      ',' +
      textOf(row[16]) +
      ',' +
      textOf(row[17]) +
      ',' +
      timeOf(localTime, row[18]) +
      '\r\n';
    return plain(joined) ? joined : line(cellsOf(row));
  };
}

/** Lines kept as text before they are encoded into the chunk: a short string, soon garbage. */
const LINES_PER_ENCODE = 32;
/** A chunk's first size in bytes (a thousand lines are about 220 KB); long lines grow it. */
const CHUNK_BYTES = 256 * 1024;
/** Chunks handed back and kept to be filled again: those an export holds at once, and a few. */
const SPARE_CHUNKS = 8;

/**
 * The export's CSV as UTF-8 bytes, a chunk at a time: rows go in (rawCsvLine), and `take`
 * hands over the bytes of the lines added since the last take, ready for the file. The text
 * is encoded every few lines straight into the chunk, so no chunk-long string is built, kept
 * alive while it grows, and encoded again when written.
 */
export class RawCsvChunks {
  private readonly line: (row: readonly unknown[]) => string;
  private text = '';
  private lines = 0;
  private chunk: Buffer | undefined;
  private used = 0;
  /** Chunks whose bytes were copied by their taker (recycle), to be filled again. */
  private readonly spare: Buffer[] = [];

  constructor(line: CsvLine, profileName?: ProfileName) {
    this.line = rawCsvLine(line, profileName);
  }

  add(row: readonly unknown[]): void {
    this.text += this.line(row);
    if (++this.lines === LINES_PER_ENCODE) this.encode();
  }

  /** The bytes added since the last take; the next chunk starts empty. */
  take(): Uint8Array {
    this.encode();
    const bytes = this.chunk?.subarray(0, this.used) ?? new Uint8Array(0);
    this.chunk = undefined;
    this.used = 0;
    return bytes;
  }

  /** take(), as the chunk of `entries` entries, its bytes lent: released, they are reused. */
  takeLent(entries: number): CsvChunk {
    const bytes = this.take();
    let lent = true;
    const release = () => {
      if (lent) this.recycle(bytes);
      lent = false;
    };
    return { content: bytes, entries, release };
  }

  /**
   * Hands back the bytes of a chunk (its whole buffer) once they are copied: a later chunk is
   * made in the same memory, rather than in a new buffer while the old ones wait to be
   * collected. Whatever still holds them must not read them after this.
   */
  recycle(bytes: Uint8Array): void {
    if (this.spare.length >= SPARE_CHUNKS || bytes.buffer.byteLength < CHUNK_BYTES) return;
    this.spare.push(Buffer.from(bytes.buffer, 0, bytes.buffer.byteLength));
  }

  private encode(): void {
    if (this.text === '') return;
    // UTF-8 takes at most three bytes per UTF-16 unit (four per surrogate pair).
    const room = this.used + this.text.length * 3;
    if (!this.chunk || room > this.chunk.length) {
      const size = Math.max(CHUNK_BYTES, room, (this.chunk?.length ?? 0) * 2);
      const spare = this.spare.pop();
      const bigger = spare && spare.length >= size ? spare : Buffer.allocUnsafe(size);
      this.chunk?.copy(bigger, 0, 0, this.used);
      this.chunk = bigger;
    }
    this.used += this.chunk.write(this.text, this.used, 'utf8');
    this.text = '';
    this.lines = 0;
  }
}

/** The header line's cells. */
export const CSV_COLUMN_NAMES: readonly string[] = COLUMNS.map(([name]) => name);

/**
 * A chunk of the journal's CSV: text, or its UTF-8 bytes (SQLite's raw rows), and its entries.
 * A store says how many entries the whole export holds (`total`, counted in the export's own
 * view of the journal) on a chunk once it knows, possibly on an empty one, possibly only after
 * the first lines (SQLite counts on another thread beside the export).
 */
export interface CsvChunk {
  content: string | Uint8Array;
  /**
   * When `content`'s bytes are lent (files.ts LentBytes): called once they are copied, and the
   * store fills the same memory with a later chunk. Not called, they stay the taker's.
   */
  release?: () => void;
  entries: number;
  total?: number;
  /** On the last chunk: the totals of every entry the export wrote. */
  totals?: JournalTotals;
}

/**
 * CSV lines `size` entries at a time from a store that hands over whole entries (PostgreSQL),
 * after the total that `count` gives, and last the totals of those entries, tallied as they go.
 */
export async function* csvChunksOfEntries(
  entries: AsyncIterable<JournalEntry>,
  size: number,
  count: () => Promise<number>,
  profileName: ProfileName = byId,
): AsyncGenerator<CsvChunk> {
  yield { content: '', entries: 0, total: await count() };
  const line = await csvLineWriter();
  const tally = new TotalsTally();
  let batch: JournalEntry[] = [];
  for await (const entry of entries) {
    batch.push(entry);
    tally.addEntry(entry);
    if (batch.length >= size) {
      yield { content: csvLines(batch, line, profileName), entries: batch.length };
      batch = [];
    }
  }
  if (batch.length) yield { content: csvLines(batch, line, profileName), entries: batch.length };
  yield { content: '', entries: 0, totals: tally.totals() };
}

/** One line per entry. */
export function csvLines(
  entries: readonly JournalEntry[],
  line: CsvLine,
  profileName: ProfileName = byId,
): string {
  let text = '';
  for (const entry of entries) text += line(COLUMNS.map(([, get]) => get(entry, profileName)));
  return text;
}

/** The whole CSV of these entries, header first, from whole entries (the reference of tests). */
export async function journalCsv(
  entries: Iterable<JournalEntry>,
  profileName: ProfileName = byId,
): Promise<string> {
  const line = await csvLineWriter();
  let text = line(CSV_COLUMN_NAMES);
  for (const entry of entries) text += csvLines([entry], line, profileName);
  return text;
}

/** The header of an export's totals file (docs/protocol.md, "The journal's totals"). */
export const TOTALS_COLUMN_NAMES: readonly string[] = [
  'totals',
  'currency',
  'action',
  'approved_entries',
  'approved_amount',
  'open_entries',
  'open_amount',
  'not_moved_entries',
];

/**
 * An export's totals file: the header, then per currency a line for all its actions ("all",
 * counts only when it spans several actions) and one per action, amounts as exact decimal text of the currency. A file of its own beside
 * the entries', so each stays one table a program reads with its own header.
 */
export function totalsCsvLines(totals: JournalTotals, line: CsvLine): string {
  let text = line(TOTALS_COLUMN_NAMES);
  for (const c of totals.currencies) {
    const amount = (minor: bigint) => (c.currency === null ? '' : formatMinor(minor, c.currency));
    const cells = (action: string, t: Omit<ActionTotals, 'action'>) => [
      'total',
      c.currency ?? '',
      action,
      String(t.approved.count),
      amount(t.approved.minor),
      String(t.open.count),
      amount(t.open.minor),
      String(t.notMoved),
    ];
    // The "all" line counts; its amounts are left empty when it spans several actions, since a
    // capture and a refund added together are no figure of anything.
    const mixed = c.byAction.length > 1;
    const all = cells('all', c);
    if (mixed) all[4] = all[6] = '';
    text += line(all);
    for (const a of c.byAction) text += line(cells(actionLabel(a.action, a.action), a));
  }
  return text;
}
