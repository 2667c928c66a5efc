// CSV export of the journal: RFC 4180 quoting, amounts as exact decimal text, and cells that a
// spreadsheet would run as a formula (=, +, -, @) defused with a leading apostrophe.

import { formatMinor } from '../gateway/amount';
import type { JournalEntry } from './journal';

const COLUMNS: readonly [string, (e: JournalEntry) => string][] = [
  ['created_at', (e) => e.createdAt],
  ['operator', (e) => e.operator],
  ['profile_id', (e) => e.profileId],
  ['operation', (e) => e.operation],
  ['client_orderid', (e) => e.clientOrderId],
  ['orderid', (e) => e.orderId ?? ''],
  ['target_orderid', (e) => e.targetOrderId ?? ''],
  ['amount', (e) => (e.amountMinor === null ? '' : formatMinor(e.amountMinor))],
  ['currency', (e) => e.currency ?? ''],
  ['reason', (e) => e.reason ?? ''],
  ['note', (e) => e.note ?? ''],
  ['email', (e) => e.email ?? ''],
  ['state', (e) => e.state],
  ['status', (e) => e.status ?? ''],
  ['error_code', (e) => e.errorCode ?? ''],
  ['error_message', (e) => e.errorMessage ?? ''],
  ['final_at', (e) => e.finalAt ?? ''],
];

/** The journal column each CSV column comes from, in order (the amount from amount_minor). */
export const CSV_SOURCE_COLUMNS = [
  'created_at',
  'operator',
  'profile_id',
  'operation',
  'client_orderid',
  'orderid',
  'target_orderid',
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
const AMOUNT_AT = CSV_SOURCE_COLUMNS.indexOf('amount_minor');

/**
 * CSV lines from rows read raw in CSV_SOURCE_COLUMNS order (integers as bigint): the export's
 * path, with no entry objects in between. The same text as csvLines of the same entries.
 */
export function csvLinesOfRaw(rows: readonly (readonly unknown[])[]): string {
  let text = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      const cell =
        value === null || value === undefined
          ? ''
          : i === AMOUNT_AT
            ? formatMinor(value as bigint)
            : typeof value === 'bigint'
              ? value.toString()
              : (value as string);
      line += i === 0 ? csvCell(cell) : ',' + csvCell(cell);
    }
    text += line + '\r\n';
  }
  return text;
}

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line. */
export const CSV_HEADER = COLUMNS.map(([name]) => name).join(',') + '\r\n';

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
