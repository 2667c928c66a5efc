// The batch's result file reads each row's outcome from the journal: a row the batch did not see
// end (its desk quit while it was in flight, another desk's start settled it) shows what the
// journal knows, not "not finished"; a row the batch saw end keeps what it recorded.

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { resultCsv } from '../../../main/services/batch/csv';
import type { BatchRow } from '../../../main/store/sqlite/batches';
import type { JournalEntry } from '../../../main/store/journal/port';

function row(line: number, patch: Partial<BatchRow>): BatchRow {
  return {
    batchId: 1,
    line,
    operation: 'refund',
    orderid: String(1000 + line),
    refClientOrderId: null,
    amountMinor: 250n,
    currency: 'EUR',
    reason: 'Damaged',
    note: null,
    problem: null,
    warning: null,
    actionId: `pd-row-${line}-abcdef`,
    attempt: 0,
    state: 'sending',
    status: null,
    error: null,
    ...patch,
  };
}

function entryOf(r: BatchRow, patch: Partial<JournalEntry>): [string, JournalEntry] {
  return [
    r.actionId as string,
    {
      clientOrderId: r.actionId,
      state: 'final',
      status: 'approved',
      errorMessage: null,
      ...patch,
    } as JournalEntry,
  ];
}

describe('the batch result file', () => {
  it("takes a row's outcome from the journal when the batch did not see it end", async () => {
    const settled = row(2, {});
    const refused = row(3, {});
    const inFlight = row(4, {});
    const seen = row(5, { state: 'done', status: 'approved' });
    const never = row(6, { state: 'ready' });
    const entries = new Map([
      entryOf(settled, {}),
      entryOf(refused, {
        state: 'refused',
        status: null,
        errorMessage: 'The gateway still had no record of this request: it was not received.',
      }),
      entryOf(inFlight, { state: 'unknown', status: null }),
      entryOf(seen, {}),
    ]);
    const lines = (await resultCsv([settled, refused, inFlight, seen, never], entries)).split(
      '\r\n',
    );
    expect(lines.slice(1, 6)).toEqual([
      '2,refund,1002,pd-row-2-abcdef,2.50,EUR,approved,',
      '3,refund,1003,pd-row-3-abcdef,2.50,EUR,not sent,The gateway still had no record of this request: it was not received.',
      '4,refund,1004,pd-row-4-abcdef,2.50,EUR,not finished,',
      '5,refund,1005,pd-row-5-abcdef,2.50,EUR,approved,',
      '6,refund,1006,pd-row-6-abcdef,2.50,EUR,not finished,',
    ]);
    // Without the journal's word, a row in flight is only "not finished".
    expect((await resultCsv([settled])).split('\r\n')[1]).toBe(
      '2,refund,1002,pd-row-2-abcdef,2.50,EUR,not finished,',
    );
  });

  it('writes an error a spreadsheet would run as a formula, fullwidth too, as text', async () => {
    const failed = (line: number, error: string) =>
      row(line, { state: 'failed', status: 'error', error });
    const text = await resultCsv([failed(2, '=cmd|"/c calc"!A1'), failed(3, '\uFF20SUM(A1)')]);
    const [header = [], ...rows] = parse(text);
    expect(rows.map((r) => r[header.indexOf('error')])).toEqual([
      `'=cmd|"/c calc"!A1`,
      "'\uFF20SUM(A1)",
    ]);
  });
});
