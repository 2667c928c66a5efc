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
    cells: null,
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
    const lines = (
      await resultCsv(undefined, [settled, refused, inFlight, seen, never], entries)
    ).split('\r\n');
    // A batch stored before its cells were kept: the columns Paydesk read stand in for them.
    expect(lines.slice(0, 6)).toEqual([
      'operation,orderid,client_orderid,amount,currency,reason,note,gateway_orderid,action_id,status,error',
      'refund,1002,,2.50,EUR,Damaged,,1002,pd-row-2-abcdef,approved,',
      'refund,1003,,2.50,EUR,Damaged,,1003,pd-row-3-abcdef,not sent,The gateway still had no record of this request: it was not received.',
      'refund,1004,,2.50,EUR,Damaged,,1004,pd-row-4-abcdef,not finished,',
      'refund,1005,,2.50,EUR,Damaged,,1005,pd-row-5-abcdef,approved,',
      'refund,1006,,2.50,EUR,Damaged,,1006,pd-row-6-abcdef,not finished,',
    ]);
    // Without the journal's word, a row in flight is only "not finished".
    const given = { ...settled, cells: ['Refund', '1002', '2.5', 'eur'] };
    expect((await resultCsv(['Op', 'Order', 'Amt', 'Cur'], [given])).split('\r\n')).toEqual([
      'Op,Order,Amt,Cur,gateway_orderid,action_id,status,error',
      'Refund,1002,2.5,eur,1002,pd-row-2-abcdef,not finished,',
      '',
    ]);
  });

  it('writes an error a spreadsheet would run as a formula, fullwidth too, as text', async () => {
    const failed = (line: number, error: string) =>
      row(line, { state: 'failed', status: 'error', error });
    const text = await resultCsv(undefined, [
      failed(2, '=cmd|"/c calc"!A1'),
      failed(3, '\uFF20SUM(A1)'),
    ]);
    const [header = [], ...rows] = parse(text);
    expect(rows.map((r) => r[header.indexOf('error')])).toEqual([
      `'=cmd|"/c calc"!A1`,
      "'\uFF20SUM(A1)",
    ]);
  });
});
