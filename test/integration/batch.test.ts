// Batches over real HTTP against the sandbox: the CSV dialects a spreadsheet writes, every
// problem a clerk can make shown on its row before anything is sent, pause/resume/cancel, the
// result file (the shop's own columns as given, Paydesk's outcome added), and card data typed
// into a cell, which never reaches the database.

import { existsSync, readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { BATCH_CHECK_FRESH_MS, BatchService } from '../../main/services/batch/batch';
import { parseBatchCsv } from '../../main/services/batch/csv';
import { Profiles } from '../../main/store/sqlite/profiles';
import { CONTROL_KEY, createDesk, type Desk, type Started } from '../reliability/support';
import { approvedOrder, SHOP, shopClient, startShopSandbox } from '../support/shop';

let sandbox: Sandbox;
let desk: Desk;
let paydesk: Started;
let batches: BatchService;

beforeAll(async () => {
  sandbox = await startShopSandbox(CONTROL_KEY);
  desk = createDesk(sandbox);
  paydesk = await desk.start();
  batches = new BatchService(paydesk.db, paydesk.port, new Profiles(paydesk.db), paydesk.service, {
    operator: 'ann',
  });
});

afterAll(async () => {
  await paydesk.stop();
  await sandbox.close();
  desk.dispose();
});

const reversals = () => sandbox.orders(SHOP.endpointId).filter((o) => o.kind === 'reversal');

describe('the file', () => {
  it('reads comma or semicolon, quotes, a BOM and CRLF alike', () => {
    const comma =
      'operation,orderid,amount,currency,reason,note\r\nrefund,11,1.00,EUR,Damaged,"a, ""b"""\r\n';
    const semi =
      '\uFEFFOperation;OrderID;Amount;Currency;Reason;Note\nrefund;11;1.00;EUR;Damaged;"a, ""b"""\n\n';
    for (const text of [comma, semi])
      expect(parseBatchCsv(text).rows).toEqual([
        {
          line: 2,
          operation: 'refund',
          orderid: '11',
          client_orderid: '',
          amount: '1.00',
          currency: 'EUR',
          reason: 'Damaged',
          note: 'a, "b"',
          cells: ['refund', '11', '1.00', 'EUR', 'Damaged', 'a, "b"'],
        },
      ]);
    expect(parseBatchCsv(semi).header).toEqual([
      'Operation',
      'OrderID',
      'Amount',
      'Currency',
      'Reason',
      'Note',
    ]);
  });

  it('says "too many columns" on a line with more cells than the header, never shifting them', () => {
    const { rows } = parseBatchCsv('operation,orderid,amount,currency\nrefund,1000001,1,5,EUR\n');
    expect(rows[0]).toMatchObject({ line: 2, operation: 'refund', amount: '', currency: '' });
    expect(rows[0]?.shapeProblem).toMatch(
      /^Too many columns: this line has 5 cells, the header 4\. A decimal comma/,
    );
    const short = parseBatchCsv('operation,orderid,amount,currency\nrefund,1000001,1.50\n');
    expect(short.rows[0]?.shapeProblem).toMatch(/^Too few columns: this line has 3 cells/);
    // Trailing empty cells a spreadsheet adds are no data.
    const trailing = parseBatchCsv(
      'operation,orderid,amount,currency\nrefund,1000001,1.50,EUR,,\n',
    );
    expect(trailing.rows[0]).toMatchObject({ currency: 'EUR' });
    expect(trailing.rows[0]?.shapeProblem).toBeUndefined();
  });

  it('says what to fix in a file it cannot read', () => {
    expect(() => parseBatchCsv('operation,orderid,amount\nrefund,"11,1.00\n')).toThrow(/not a CSV/);
    expect(() => parseBatchCsv('operation,order,amount\nrefund,1,1.00\n')).toThrow(
      /columns Paydesk does not know: order/,
    );
    expect(() => parseBatchCsv('operation,orderid\n')).toThrow(/no rows/);
  });
});

describe('a batch', () => {
  it('shows each row its problem and sends nothing before it is started', async () => {
    const client = shopClient(sandbox, CONTROL_KEY);
    const [a, b, c] = await Promise.all([
      approvedOrder(client, 'SALE', '10.00'),
      approvedOrder(client, 'SALE', '10.00'),
      approvedOrder(client, 'SALE', '5.00'),
    ]);
    const csv = [
      'operation,orderid,amount,currency,reason,note',
      `refund,${a},6.00,EUR,Damaged,`,
      `refund,${a},5.00,EUR,Damaged,`, // with the line above: more than is left
      `refund,${b},1.234,EUR,Damaged,`,
      `refund,${b},1.00,USD,Damaged,`,
      `refund,${b},1.00,EUR,,`,
      `refund,${b},100,JPY,Damaged,`,
      `refund,${b},1.50,JPY,Damaged,`,
      `refund,999999,1.00,EUR,Damaged,`,
      `chargeback,${b},1.00,EUR,Damaged,`,
      `void,${c},,,Mistake,`,
      `refund,${c},1.00,EUR,Damaged,`, // the same order voided on the line above
      `status,${b},,,,`,
    ].join('\n');
    const { batch, rows } = await batches.load(desk.profileId, 'mistakes.csv', csv);
    const problems = rows.map((r) => r.problem ?? '');
    expect(problems[0]).toBe('');
    expect(problems[1]).toMatch(
      /With the earlier lines of this order \(6\.00 EUR\), 11\.00 is more than what is left, 10\.00/,
    );
    expect(rows[1]?.warning).toMatch(/also on line 2/);
    expect(problems[2]).toMatch(/more than two decimals/);
    expect(problems[3]).toMatch(/The order is in EUR/);
    expect(problems[4]).toMatch(/Give a reason for the refund/);
    expect(problems[5]).toMatch(/The order is in EUR/);
    expect(problems[6]).toMatch(/"1.50" has decimals; JPY amounts have none/);
    expect(problems[7]).toMatch(/could not be looked up/);
    expect(problems[8]).toMatch(/"chargeback" is not one of/);
    expect(problems[9]).toMatch(/Line 12 acts on the same order/);
    expect(problems[10]).toMatch(/voids the same order/);
    expect(problems[11]).toBe('');
    expect(batch.totals).toEqual([
      { operation: 'refund', currency: 'EUR', amount: '6.00', rows: 1 },
    ]);
    expect(batch.progress).toMatchObject({ total: 12, invalid: 10, left: 2, done: 0 });
    expect(reversals()).toHaveLength(0);

    batches.start(batch.id);
    await batches.idle(batch.id);
    expect(batches.get(batch.id)).toMatchObject({
      state: 'done',
      progress: { done: 2, failed: 0, left: 0, invalid: 10 },
    });
    expect(reversals().filter((r) => r.parentOrderId === a)).toHaveLength(1);
    const result = (await batches.resultCsv(batch.id)).split('\r\n');
    // The file's own columns as given, then what Paydesk adds.
    expect(result[0]).toBe(
      'operation,orderid,amount,currency,reason,note,gateway_orderid,action_id,status,error',
    );
    expect(result[1]).toMatch(
      new RegExp(`^refund,${a},6\\.00,EUR,Damaged,,${a},pd-[a-z0-9-]+,approved,$`),
    );
    expect(result[3]).toMatch(
      new RegExp(
        `^refund,${b},1\\.234,EUR,Damaged,,${b},,not sent \\(problem in the file\\),.*more than two decimals`,
      ),
    );
    expect(result[12]).toBe(`status,${b},,,,,${b},,approved,`);
  });

  it('pauses, resumes and cancels: what was sent ends final, nothing after the cancel is sent', async () => {
    const client = shopClient(sandbox, CONTROL_KEY);
    const ids = await Promise.all(
      Array.from({ length: 12 }, () => approvedOrder(client, 'SALE', '10.00')),
    );
    const csv = ['operation,orderid,amount,currency,reason']
      .concat(ids.map((id) => `refund,${id},2.00,EUR,Damaged`))
      .join('\n');
    const { batch } = await batches.load(desk.profileId, 'pause.csv', csv, 2);
    batches.start(batch.id);
    batches.pause(batch.id);
    await batches.idle(batch.id);
    const paused = batches.get(batch.id);
    expect(paused.state).toBe('paused');
    expect(paused.progress.done).toBeLessThan(12);
    expect(paused.progress.left).toBe(12 - paused.progress.done);

    batches.start(batch.id);
    for (let i = 0; i < 200 && batches.get(batch.id).progress.done < paused.progress.done + 2; i++)
      await new Promise((r) => setTimeout(r, 10));
    batches.cancel(batch.id);
    await batches.idle(batch.id);
    const cancelled = batches.get(batch.id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.progress.left).toBe(0);
    expect(cancelled.progress.cancelled).toBeGreaterThan(0);
    expect(cancelled.progress.done + cancelled.progress.cancelled).toBe(12);
    const sent = new Set(reversals().map((r) => r.parentOrderId));
    const rows = batches.rows(batch.id);
    for (const row of rows) {
      expect(sent.has(row.orderid ?? ''), `line ${row.line} ${row.state}`).toBe(
        row.state === 'done',
      );
      if (row.state === 'done')
        expect(paydesk.journal.get(row.clientOrderId ?? '')).toMatchObject({ state: 'final' });
    }
    expect(() => batches.start(batch.id)).toThrow(/cancelled/);
  });
});

describe('what a batch keeps', () => {
  it('gives the shop back its own columns and cells as given, with the outcome added', async () => {
    const client = shopClient(sandbox, CONTROL_KEY);
    const id = await approvedOrder(client, 'SALE', '10.00');
    const csv = [
      'Client_OrderID;Operation;Amount;Currency;Reason;Note;OrderID',
      `shop-77;Refund; 2.5 ;eur;Damaged;"box ""3""";${id}`,
      `shop-78;refund;1;EUR;Damaged;`,
    ].join('\n');
    const { batch } = await batches.load(desk.profileId, 'shop.csv', csv);
    batches.start(batch.id);
    await batches.idle(batch.id);
    const [header, first, second] = (await batches.resultCsv(batch.id)).split('\r\n');
    expect(header).toBe(
      'Client_OrderID,Operation,Amount,Currency,Reason,Note,OrderID,gateway_orderid,action_id,status,error',
    );
    expect(first).toMatch(
      new RegExp(
        `^shop-77,Refund,2\\.5,eur,Damaged,"box ""3""",${id},${id},pd-[a-z0-9-]+,approved,$`,
      ),
    );
    expect(second).toMatch(
      /^shop-78,refund,1,EUR,Damaged,,,,,not sent \(problem in the file\),"Too few columns: this line has 6 cells, the header 7/,
    );
  });

  it('never stores a card number typed into a cell, and the preview says which line and column', async () => {
    const client = shopClient(sandbox, CONTROL_KEY);
    const id = await approvedOrder(client, 'SALE', '10.00');
    const spaced = '4111 1111 1111 1111';
    const csv = [
      'operation,orderid,client_orderid,amount,currency,reason,note',
      `refund,${id},,1.00,EUR,Damaged,card ${spaced} cvv 123`,
      `refund,${id},,1.00,EUR,5555555555554444,`,
      `refund,,4012888888881881,1.00,EUR,Damaged,`,
      `refund,${id},,1.00,EUR,Damaged,cvc: 737`,
      `refund,${id},,1.00,EUR,Damaged,fine`,
    ].join('\n');
    const { batch, rows } = await batches.load(desk.profileId, 'cards.csv', csv);
    expect(rows.map((r) => [r.line, r.problem])).toEqual([
      [
        2,
        expect.stringMatching(
          /^The note cell held what looks like a card number; Paydesk did not keep it\./,
        ),
      ],
      [3, expect.stringMatching(/^The reason cell held what looks like a card number/)],
      [4, expect.stringMatching(/^The client_orderid cell held what looks like a card number/)],
      [5, expect.stringMatching(/^The note cell held what looks like a card security code/)],
      [6, null],
    ]);
    expect(rows[0]?.note).toBe('[card number removed]');
    expect(batch.progress).toMatchObject({ total: 5, invalid: 4 });
    batches.start(batch.id);
    await batches.idle(batch.id);
    const result = await batches.resultCsv(batch.id);
    expect(result).toContain('[card number removed]');

    // What rests on disk: the database file and its write-ahead log, byte for byte.
    const stored = [desk.file, `${desk.file}-wal`].map((f) =>
      existsSync(f) ? readFileSync(f).toString('latin1') : '',
    );
    expect(stored[1]?.length).toBeGreaterThan(0);
    for (const text of [...stored, result, JSON.stringify(batches.rows(batch.id))]) {
      for (const secret of [
        '4111111111111111',
        spaced,
        '5555555555554444',
        '4012888888881881',
        'cvv 123',
        'cvc: 737',
      ])
        expect(text.includes(secret), secret).toBe(false);
    }
  });
});

describe('pausing', () => {
  it('says "pausing" while the rows in flight end, and starts no row after the pause', async () => {
    const client = shopClient(sandbox, CONTROL_KEY);
    const ids = await Promise.all(
      Array.from({ length: 8 }, () => approvedOrder(client, 'SALE', '10.00')),
    );
    const csv = ['operation,orderid,amount,currency,reason']
      .concat(ids.map((id) => `refund,${id},2.00,EUR,Damaged`))
      .join('\n');
    const { batch } = await batches.load(desk.profileId, 'pausing.csv', csv, 2);
    sandbox.misbehave({ latencyMs: 300, operations: ['RETURN'] });
    try {
      batches.start(batch.id);
      for (let i = 0; i < 200 && batches.get(batch.id).progress.sending < 2; i++)
        await new Promise((r) => setTimeout(r, 5));
      const pausing = batches.pause(batch.id);
      const inFlight = new Set(
        batches
          .rows(batch.id)
          .filter((r) => r.state === 'sending')
          .map((r) => r.line),
      );
      expect(pausing).toMatchObject({ state: 'running', stopping: 'pause' });
      expect(pausing.progress.sending).toBe(2);
      await batches.idle(batch.id);
      expect(batches.get(batch.id)).toMatchObject({ state: 'paused', stopping: null });
      // Only the rows in flight when the clerk paused reached the gateway.
      const sent = batches.rows(batch.id).filter((r) => r.state !== 'ready');
      expect(sent.map((r) => r.line).sort()).toEqual([...inFlight].sort());
      expect(reversals().filter((r) => ids.includes(r.parentOrderId ?? ''))).toHaveLength(2);
    } finally {
      sandbox.misbehave({});
    }
  });

  it('stops retrying a row whose status could not be read once paused: it waits, nothing is sent', async () => {
    const client = shopClient(sandbox, CONTROL_KEY);
    const id = await approvedOrder(client, 'SALE', '10.00');
    // Started after the check's window, so the row reads its order's status before sending.
    let later = 0;
    const batches = new BatchService(
      paydesk.db,
      paydesk.port,
      new Profiles(paydesk.db),
      paydesk.service,
      { operator: 'ann', now: () => Date.now() + later },
    );
    const { batch } = await batches.load(
      desk.profileId,
      'status-down.csv',
      `operation,orderid,amount,currency,reason\nrefund,${id},2.00,EUR,Damaged`,
    );
    later = BATCH_CHECK_FRESH_MS + 1_000;
    // The order's status cannot be read before sending: nothing is journaled, nothing leaves.
    sandbox.misbehave({ serverErrorShare: 1, operations: ['STATUS'] });
    try {
      batches.start(batch.id);
      for (let i = 0; i < 200 && batches.rows(batch.id)[0]?.state !== 'sending'; i++)
        await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 150));
      batches.pause(batch.id);
      await new Promise((r) => setTimeout(r, 150));
      sandbox.misbehave({}); // the gateway is back while the batch is paused
      await batches.idle(batch.id);
      await new Promise((r) => setTimeout(r, 300));
      expect(batches.get(batch.id)).toMatchObject({ state: 'paused', progress: { left: 1 } });
      expect(batches.rows(batch.id)[0]?.state).toBe('ready');
      expect(reversals().filter((r) => r.parentOrderId === id)).toHaveLength(0);
    } finally {
      sandbox.misbehave({});
    }
  });
});
