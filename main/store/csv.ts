// CSV export of the journal: RFC 4180 quoting, amounts as exact decimal text, and cells that a
// spreadsheet would run as a formula (=, +, -, @) defused with a leading apostrophe.

import { formatMinor } from '../gateway/amount';
import { currencyExponent, minorToText } from '../../preload/money';
import { actionLabel } from '../../preload/journal-actions';
import { isoWithOffset, isoWithOffsetByDay } from '../../preload/time';
import type { JournalEntry } from './journal';

const COLUMNS: readonly [string, (e: JournalEntry) => string][] = [
  // ISO 8601 in the desk's local time with its offset (2026-03-14T09:26:53.120+01:00).
  ['created_at', (e) => isoWithOffset(e.createdAt)],
  ['operator', (e) => e.operator],
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

/** The journal column each CSV column comes from, in order (the amount from amount_minor). */
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

/** A stored value as cell text: NULL as nothing, integers (read as bigint) in digits. */
function textOf(value: unknown): string {
  return value === null || value === undefined
    ? ''
    : typeof value === 'bigint'
      ? value.toString()
      : (value as string);
}

/** A stored value as a CSV cell. */
function cellOf(value: unknown): string {
  return value === null || value === undefined ? '' : csvCell(textOf(value));
}

/**
 * A row read raw in CSV_SOURCE_COLUMNS order (integers as bigint) as its CSV line: the
 * export's path, with no entry objects in between, and the same text as csvLines of the same
 * entry. One of these serves one export: it keeps the local dates and offset of the last UTC
 * day of each time column (isoWithOffsetByDay) and the decimals of the last currency, which
 * per entry would cost more than the rest of the line. The columns are written out one by one
 * (a loop over the columns with a test per kind cost a quarter more).
 */
export function rawCsvLine(): (row: readonly unknown[]) => string {
  const createdAt = isoWithOffsetByDay();
  const finalAt = isoWithOffsetByDay();
  let currency: unknown = null;
  let exponent = currencyExponent(null);
  const amountOf = (minor: unknown, code: unknown): string => {
    if (minor === null || minor === undefined) return '';
    if (code !== currency) {
      currency = code;
      exponent = currencyExponent(textOf(code) || null);
    }
    return csvCell(minorToText(minor as bigint, exponent));
  };
  const timeOf = (format: (iso: string) => string, value: unknown): string =>
    value === null || value === undefined ? '' : csvCell(format(textOf(value)));
  // CSV_SOURCE_COLUMNS, in order.
  return (row) =>
    timeOf(createdAt, row[0]) +
    ',' +
    cellOf(row[1]) + // operator
    ',' +
    cellOf(row[2]) + // profile_id
    ',' +
    csvCell(actionLabel((row[3] as string | null) ?? null, textOf(row[4]))) +
    ',' +
    cellOf(row[4]) + // operation
    ',' +
    cellOf(row[5]) + // client_orderid
    ',' +
    cellOf(row[6]) + // orderid
    ',' +
    cellOf(row[7]) + // target_orderid
    ',' +
    cellOf(row[8]) + // target_client_orderid
    ',' +
    amountOf(row[9], row[10]) +
    ',' +
    cellOf(row[10]) + // currency
    ',' +
    cellOf(row[11]) + // reason
    ',' +
    cellOf(row[12]) + // note
    ',' +
    cellOf(row[13]) + // email
    ',' +
    cellOf(row[14]) + // state
    ',' +
    cellOf(row[15]) + // status
    ',' +
    cellOf(row[16]) + // error_code
    ',' +
    cellOf(row[17]) + // error_message
    ',' +
    timeOf(finalAt, row[18]) +
    '\r\n';
}

/** Lines kept as text before they are encoded into the chunk: a short string, soon garbage. */
const LINES_PER_ENCODE = 32;
/** A chunk's first size in bytes (a thousand lines are about 190 KB); long lines grow it. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The export's CSV as UTF-8 bytes, a chunk at a time: rows go in (rawCsvLine), and `take`
 * hands over the bytes of the lines added since the last take, ready for the file. The text
 * is encoded every few lines straight into the chunk, so no chunk-long string is built, kept
 * alive while it grows, and encoded again when written.
 */
export class RawCsvChunks {
  private readonly line = rawCsvLine();
  private text = '';
  private lines = 0;
  private chunk: Buffer | undefined;
  private used = 0;

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

  private encode(): void {
    if (this.text === '') return;
    // UTF-8 takes at most three bytes per UTF-16 unit (four per surrogate pair).
    const room = this.used + this.text.length * 3;
    if (!this.chunk || room > this.chunk.length) {
      const bigger = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room, (this.chunk?.length ?? 0) * 2));
      this.chunk?.copy(bigger, 0, 0, this.used);
      this.chunk = bigger;
    }
    this.used += this.chunk.write(this.text, this.used, 'utf8');
    this.text = '';
    this.lines = 0;
  }
}

/** Anything csvCell changes: a formula's first character, or what needs quoting. */
const NOT_PLAIN = /^[=+\-@\t\r]|[",\r\n]/;

export function csvCell(value: string): string {
  // Most cells are plain: one test instead of two (the export runs this for every cell).
  if (!NOT_PLAIN.test(value)) return value;
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line. */
export const CSV_HEADER = COLUMNS.map(([name]) => name).join(',') + '\r\n';

/**
 * A chunk of the journal's CSV: text, or its UTF-8 bytes (SQLite's raw rows), and its entries.
 * A store says how many entries the whole export holds (`total`, counted in the export's own
 * view of the journal) on a chunk once it knows, possibly on an empty one, possibly only after
 * the first lines (SQLite counts on another thread beside the export).
 */
export interface CsvChunk {
  content: string | Uint8Array;
  entries: number;
  total?: number;
}

/**
 * CSV lines `size` entries at a time from a store that hands over whole entries (PostgreSQL),
 * after the total that `count` gives.
 */
export async function* csvChunksOfEntries(
  entries: AsyncIterable<JournalEntry>,
  size: number,
  count: () => Promise<number>,
): AsyncGenerator<CsvChunk> {
  yield { content: '', entries: 0, total: await count() };
  let batch: JournalEntry[] = [];
  for await (const entry of entries) {
    batch.push(entry);
    if (batch.length >= size) {
      yield { content: csvLines(batch), entries: batch.length };
      batch = [];
    }
  }
  if (batch.length) yield { content: csvLines(batch), entries: batch.length };
}
/** One line per entry. */
export function csvLines(entries: readonly JournalEntry[]): string {
  let text = '';
  for (const entry of entries)
    text += COLUMNS.map(([, get]) => csvCell(get(entry))).join(',') + '\r\n';
  return text;
}

export function* journalCsvLines(entries: Iterable<JournalEntry>): Generator<string> {
  yield CSV_HEADER;
  for (const entry of entries) yield csvLines([entry]);
}

export function journalCsv(entries: Iterable<JournalEntry>): string {
  return [...journalCsvLines(entries)].join('');
}
