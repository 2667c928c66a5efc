// Card data never rests in a batch. A card number or security code typed into any cell a person
// writes (reason, note, the shop's client_orderid, a mistyped amount or operation) is taken out
// of the line as soon as the file is read: the batch stores, checks, shows and writes back a
// marker in its place, never the number, and the line gets a problem that names the column,
// so the preview still tells the clerk where it was and the line is never sent. The same test
// as single actions' notes (common/card-data.ts). The gateway's orderid is left as it is: it is
// digits only and identifies the order, and a long one can pass the card-number test by chance.

import { findCardData, type CardDataKind } from '../../../common/card-data';
import type { BatchCsv, BatchCsvRow, BatchColumn } from './csv';

/** What is stored in place of a cell that held card data. */
export const REMOVED: Record<CardDataKind, string> = {
  'card-number': '[card number removed]',
  'security-code': '[security code removed]',
};

const WORDS: Record<CardDataKind, string> = {
  'card-number': 'a card number',
  'security-code': 'a card security code (CVV/CVC)',
};

/** Columns whose cells are left as they are. */
const NOT_GUARDED: readonly string[] = ['orderid'];

/** The line without its card data, and a problem per cell that held some. */
function guardRow(header: readonly string[], row: BatchCsvRow): BatchCsvRow {
  const problems: string[] = [];
  const cells = [...row.cells];
  const guarded = { ...row, cells };
  header.forEach((written, i) => {
    const column = written.trim().toLowerCase();
    const found = NOT_GUARDED.includes(column) ? null : findCardData(cells[i] ?? '');
    if (!found) return;
    cells[i] = REMOVED[found.kind];
    if (column in row && column !== 'line' && column !== 'cells')
      guarded[column as BatchColumn] = REMOVED[found.kind];
    problems.push(
      `The ${column} cell held what looks like ${WORDS[found.kind]}; Paydesk did not keep it. ` +
        'Remove it from the file (the order id or the last four digits identify the card) and load the file again.',
    );
  });
  if (problems.length === 0) return row;
  return { ...guarded, cardData: problems.join(' ') };
}

/** The file with every cell that held card data replaced by a marker (see above). */
export function withoutCardData(csv: BatchCsv): BatchCsv {
  return { header: csv.header, rows: csv.rows.map((row) => guardRow(csv.header, row)) };
}
