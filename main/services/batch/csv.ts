// A batch file in and its result out. Parsing is csv-parse's (quoted fields, doubled quotes,
// line breaks inside quotes, a BOM, CRLF or LF); what is ours is the dialect (comma or
// semicolon, taken from the header line) and the columns' names. The result file is written
// as every CSV Paydesk writes (store/csv-record.ts: csv-stringify).

import { CsvError, parse } from 'csv-parse/sync';

import { formatMinor } from '../../gateway/amount';
import { csvLineWriter } from '../../store/csv-record';
import type { BatchRow } from '../../store/sqlite/batches';
import type { JournalEntry } from '../../store/journal/port';
import { ServiceError } from '../errors';

export const BATCH_COLUMNS = [
  'operation',
  'orderid',
  'client_orderid',
  'amount',
  'currency',
  'reason',
  'note',
] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];

/** One line of the file, its cells as text (empty cells as ''), with its line number. */
export type BatchCsvRow = Record<BatchColumn, string> & { line: number };

/** At most this many rows in one file: a larger one is split by the clerk. */
export const MAX_BATCH_ROWS = 10_000;

/** Semicolon when the header has more semicolons than commas (spreadsheets in comma-decimal locales). */
function delimiterOf(text: string): ',' | ';' {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

export function parseBatchCsv(text: string): BatchCsvRow[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError)
      throw new ServiceError(
        'INPUT',
        `The file is not a CSV Paydesk can read: ${error.message}. Save it again as CSV (comma or semicolon separated) and load it again.`,
      );
    throw error;
  }
  if (records.length === 0)
    throw new ServiceError('INPUT', 'The file has no rows under its header line.');
  if (records.length > MAX_BATCH_ROWS)
    throw new ServiceError(
      'INPUT',
      `The file has ${records.length} rows; one batch takes at most ${MAX_BATCH_ROWS}. Split it into several files.`,
    );
  const first = records[0]?.record ?? {};
  const unknown = Object.keys(first).filter(
    (c) => !(BATCH_COLUMNS as readonly string[]).includes(c),
  );
  if (unknown.length > 0)
    throw new ServiceError(
      'INPUT',
      `The header has columns Paydesk does not know: ${unknown.join(', ')}. The columns are ${BATCH_COLUMNS.join(', ')}.`,
    );
  if (!('operation' in first))
    throw new ServiceError('INPUT', 'The header has no "operation" column.');
  if (!('orderid' in first) && !('client_orderid' in first))
    throw new ServiceError('INPUT', 'The header needs an "orderid" or a "client_orderid" column.');
  return records.map(({ record, info }) => {
    const row = { line: info.lines } as BatchCsvRow;
    for (const column of BATCH_COLUMNS) row[column] = record[column] ?? '';
    return row;
  });
}

const RESULT_COLUMNS = [
  'line',
  'operation',
  'orderid',
  'client_orderid',
  'amount',
  'currency',
  'final_status',
  'error',
] as const;

/**
 * What a row came to, in words a clerk reads: approved, declined, not sent, cancelled... The
 * journal entry of the row's action id, when given, is the truth about a row the batch did not
 * see end (another desk's start settled it, say).
 */
export function finalStatusOf(row: BatchRow, entry?: JournalEntry): string {
  if (row.state === 'invalid') return 'not sent (problem in the file)';
  if (row.state === 'cancelled') return 'cancelled';
  if (row.state === 'ready' || row.state === 'sending') {
    if (entry?.state === 'final') return entry.status ?? 'final';
    if (entry?.state === 'refused') return 'not sent';
    return 'not finished';
  }
  return row.status ?? row.state;
}

/**
 * The result file: every row of the batch, in the order of the file. `entries` are the journal
 * entries of the rows' action ids, as the journal port has them now.
 */
export async function resultCsv(
  rows: readonly BatchRow[],
  entries: ReadonlyMap<string, JournalEntry> = new Map(),
): Promise<string> {
  const line = await csvLineWriter();
  let text = line(RESULT_COLUMNS);
  for (const r of rows) {
    const entry = r.actionId ? entries.get(r.actionId) : undefined;
    const unseen = (r.state === 'ready' || r.state === 'sending') && entry;
    const cells = [
      String(r.line),
      r.operation,
      r.orderid ?? '',
      r.actionId ?? r.refClientOrderId ?? '',
      r.amountMinor === null ? '' : formatMinor(r.amountMinor, r.currency),
      r.currency ?? '',
      finalStatusOf(r, entry),
      (unseen ? entry.errorMessage : null) ?? r.error ?? r.problem ?? '',
    ];
    text += line(cells);
  }
  return text;
}
