// A batch file in and its result out. Parsing is csv-parse's (quoted fields, doubled quotes,
// line breaks inside quotes, a BOM, CRLF or LF); what is ours is the dialect (comma or
// semicolon, taken from the header line) and the columns' names. Each line's cells are kept as
// given, so the result file gives the shop back its own columns (with Paydesk's outcome added)
// and can be matched to the input line by line. A line with more or fewer cells than the header
// is a problem on that line, never read by guessing which cell is which. The result file is
// written as every CSV Paydesk writes (store/csv-record.ts: csv-stringify).

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
export type BatchCsvRow = Record<BatchColumn, string> & {
  line: number;
  /** Every cell of the line as given, in the file's order (as many as the header has). */
  cells: string[];
  /** Why the line cannot be read column by column (more or fewer cells than the header). */
  shapeProblem?: string;
  /** Which cells held card data, taken out before anything else read them (card-data.ts). */
  cardData?: string;
};

/** The file: its header as written, and its lines. */
export interface BatchCsv {
  /** The header's column names as written in the file, in its order. */
  header: string[];
  rows: BatchCsvRow[];
}

/** At most this many rows in one file: a larger one is split by the clerk. */
export const MAX_BATCH_ROWS = 10_000;

/** Semicolon when the header has more semicolons than commas (spreadsheets in comma-decimal locales). */
function delimiterOf(text: string): ',' | ';' {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Why a line's cells do not fit the header, or undefined when they do. */
function shapeProblemOf(
  cells: readonly string[],
  columns: number,
  delimiter: string,
): string | undefined {
  // Empty cells after the last column (a spreadsheet's trailing separators) are no data.
  let given = cells.length;
  while (given > columns && cells[given - 1] === '') given--;
  if (given > columns)
    return `Too many columns: this line has ${given} cells, the header ${columns}. A decimal comma (1,5) splits a cell in two: write amounts with a dot (1.50), or put the cell in quotes.`;
  if (given < columns)
    return `Too few columns: this line has ${given} cells, the header ${columns}. Give every column a cell, empty ones too (${delimiter}${delimiter}).`;
  return undefined;
}

export function parseBatchCsv(text: string): BatchCsv {
  const delimiter = delimiterOf(text);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
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
  const [head, ...lines] = records;
  const header = head?.record ?? [];
  const names = header.map((h) => h.trim().toLowerCase());
  if (lines.length === 0)
    throw new ServiceError('INPUT', 'The file has no rows under its header line.');
  if (lines.length > MAX_BATCH_ROWS)
    throw new ServiceError(
      'INPUT',
      `The file has ${lines.length} rows; one batch takes at most ${MAX_BATCH_ROWS}. Split it into several files.`,
    );
  const unknown = names.filter((c) => !(BATCH_COLUMNS as readonly string[]).includes(c));
  if (unknown.length > 0)
    throw new ServiceError(
      'INPUT',
      `The header has columns Paydesk does not know: ${unknown.join(', ')}. The columns are ${BATCH_COLUMNS.join(', ')}.`,
    );
  const twice = names.filter((c, i) => names.indexOf(c) !== i);
  if (twice.length > 0)
    throw new ServiceError(
      'INPUT',
      `The header names ${[...new Set(twice)].join(', ')} more than once; give each column once.`,
    );
  if (!names.includes('operation'))
    throw new ServiceError('INPUT', 'The header has no "operation" column.');
  if (!names.includes('orderid') && !names.includes('client_orderid'))
    throw new ServiceError('INPUT', 'The header needs an "orderid" or a "client_orderid" column.');
  const rows = lines.map(({ record, info }) => {
    const shapeProblem = shapeProblemOf(record, names.length, delimiter);
    const cells = names.map((_, i) => record[i] ?? '');
    const row = { line: info.lines, cells } as BatchCsvRow;
    for (const column of BATCH_COLUMNS) {
      const at = names.indexOf(column);
      row[column] = shapeProblem || at < 0 ? '' : (cells[at] ?? '');
    }
    if (shapeProblem) {
      // Not read column by column; only the operation is shown, to say which line it is.
      row.operation = cells[names.indexOf('operation')] ?? '';
      row.shapeProblem = shapeProblem;
    }
    return row;
  });
  return { header, rows };
}

/** What the result file adds to the file's own columns, after them. */
const RESULT_COLUMNS = ['gateway_orderid', 'action_id', 'status', 'error'] as const;

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

/** The cells of a row stored before its cells were kept: rebuilt from what was read. */
function cellsRead(r: BatchRow): string[] {
  const read: Record<BatchColumn, string> = {
    operation: r.operation,
    orderid: r.orderid ?? '',
    client_orderid: r.refClientOrderId ?? '',
    amount: r.amountMinor === null ? '' : formatMinor(r.amountMinor, r.currency),
    currency: r.currency ?? '',
    reason: r.reason ?? '',
    note: r.note ?? '',
  };
  return BATCH_COLUMNS.map((c) => read[c]);
}

/**
 * The result file: the file's own header and every line's cells as given (a cell that held card
 * data as it was stored: without it), in the order of the file, then the gateway's orderid, the
 * action id the row was sent with, its status and its error. `entries` are the journal entries
 * of the rows' action ids, as the journal port has them now. `header` is undefined for a batch
 * stored before its cells were kept: the columns Paydesk reads stand in for it.
 */
export async function resultCsv(
  header: readonly string[] | undefined,
  rows: readonly BatchRow[],
  entries: ReadonlyMap<string, JournalEntry> = new Map(),
): Promise<string> {
  const line = await csvLineWriter();
  const columns = header ?? BATCH_COLUMNS;
  let text = line([...columns, ...RESULT_COLUMNS]);
  for (const r of rows) {
    const entry = r.actionId ? entries.get(r.actionId) : undefined;
    const unseen = (r.state === 'ready' || r.state === 'sending') && entry;
    const given = header && r.cells ? r.cells : cellsRead(r);
    const cells = [
      ...columns.map((_, i) => given[i] ?? ''),
      r.orderid ?? '',
      r.actionId ?? '',
      finalStatusOf(r, entry),
      (unseen ? entry.errorMessage : null) ?? r.error ?? r.problem ?? '',
    ];
    text += line(cells);
  }
  return text;
}
