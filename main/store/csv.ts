// CSV export of the journal: RFC 4180 quoting, amounts as exact decimal text, and cells that a
// spreadsheet would run as a formula (=, +, -, @) defused with a leading apostrophe.

import { formatMinor } from '../gateway/amount';
import { actionLabel } from '../../preload/journal-actions';
import { isoWithOffset } from '../../preload/time';
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
const AT = (column: (typeof CSV_SOURCE_COLUMNS)[number]) => CSV_SOURCE_COLUMNS.indexOf(column);
const AMOUNT_AT = AT('amount_minor');
const CURRENCY_AT = AT('currency');
const ACTION_AT = AT('action');
const OPERATION_AT = AT('operation');
const TIMES_AT = new Set([AT('created_at'), AT('final_at')]);

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
        i === ACTION_AT
          ? actionLabel(
              (value as string | null) ?? null,
              (row[OPERATION_AT] as string | null) ?? '',
            )
          : value === null || value === undefined
            ? ''
            : i === AMOUNT_AT
              ? formatMinor(value as bigint, (row[CURRENCY_AT] as string | null) ?? null)
              : TIMES_AT.has(i)
                ? isoWithOffset(value as string)
                : typeof value === 'bigint'
                  ? value.toString()
                  : (value as string);
      line += i === 0 ? csvCell(cell) : ',' + csvCell(cell);
    }
    text += line + '\r\n';
  }
  return text;
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
