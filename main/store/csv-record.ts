// The one way Paydesk writes a CSV record (the journal export, the batch result file): the
// csv-stringify library with Paydesk's dialect, never quoting of our own. The dialect is in
// docs/protocol.md ("CSV files Paydesk writes"): comma, CRLF after every record, no BOM, a cell
// quoted (quotes doubled) when it holds a quote, a comma, a CR or an LF, and a cell a spreadsheet
// would run as a formula written with a leading apostrophe.
//
// csv-stringify normalises its options and builds a stringifier on every call, which costs
// several times what the rest of the export spends on a record. So a record
// whose cells are all plain (plainLine) is joined here; any other goes to the library. The
// journal export joins its lines itself and asks only whether the joined line is plain
// (joinedPlainTest: one test per line, not one per cell), the same rule as one pattern. Both
// are pinned to the library by test/unit/store/csv-record.test.ts: every UTF-16 code unit as a
// cell, and random records, give the library's bytes or are declined.
//
// The library is loaded on the first export, not when Paydesk starts (csvLineWriter).

import type { Options } from 'csv-stringify/sync';

/** csv-stringify's options for every CSV Paydesk writes. */
export const CSV_OPTIONS: Readonly<Options> = Object.freeze({
  delimiter: ',',
  quote: '"',
  escape: '"',
  record_delimiter: '\r\n',
  // csv-stringify turns this off when record_delimiter is given: a cell with a lone CR or LF
  // would then go out unquoted, and every reader would cut the record there.
  quote_record_delimiter: true,
  // = + - @ TAB CR at a cell's start, and the fullwidth ＝ ＋ － ＠ that some spreadsheets
  // read as the same: written after an apostrophe, so the spreadsheet shows text.
  escape_formulas: true,
  bom: false,
  eof: true,
  header: false,
});

/** Writes one record as its line, CRLF included. */
export type CsvLine = (cells: readonly string[]) => string;

/** A cell's first characters that escape_formulas defuses. */
const FORMULA_FIRST = '=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20';
/** Characters that make the library quote a cell, wherever they are in it. */
const QUOTED = '",\\r\\n';

/**
 * A cell the library would change: one that starts like a formula (the characters that
 * escape_formulas defuses), or holds a character that makes it quote the cell.
 */
const NOT_PLAIN = new RegExp(`^[${FORMULA_FIRST}]|[${QUOTED}]`);

/** A cell NOT_PLAIN lets through, as a pattern: empty, or no formula first and nothing quoted. */
const PLAIN_CELL = `(?:[^${FORMULA_FIRST}${QUOTED}][^${QUOTED}]*)?`;

/**
 * The line of a record whose cells the library would write as they are, or undefined when a
 * cell is not plain (the library writes that record).
 */
export function plainLine(cells: readonly string[]): string | undefined {
  // Joined as it is tested: one pass over the cells, not a loop of tests and then a join.
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] as string;
    if (NOT_PLAIN.test(cell)) return undefined;
    line += i === 0 ? cell : ',' + cell;
  }
  return line + '\r\n';
}

/**
 * A test of a record's text joined by its caller, `width` cells joined by commas and CRLF after:
 * true exactly when plainLine accepts those cells, so the text is the library's line. One
 * pattern over the whole line instead of a test per cell: a cell holding a comma adds a field,
 * which the pattern's exact count refuses, and every field is checked as NOT_PLAIN checks a cell.
 */
export function joinedPlainTest(width: number): (joined: string) => boolean {
  const line = new RegExp(`^${PLAIN_CELL}(?:,${PLAIN_CELL}){${width - 1}}\\r\\n$`);
  return (joined) => line.test(joined);
}

let writer: Promise<CsvLine> | undefined;

/** The record writer, loading csv-stringify on first use. */
export function csvLineWriter(): Promise<CsvLine> {
  writer ??= import('csv-stringify/sync').then(
    ({ stringify }): CsvLine =>
      (cells) =>
        plainLine(cells) ?? stringify([cells], CSV_OPTIONS),
    (error: unknown) => {
      writer = undefined; // the next export tries to load it again
      throw error;
    },
  );
  return writer;
}
