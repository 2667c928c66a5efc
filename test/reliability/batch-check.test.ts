// A batch row's status before sending is the one its file's check read when that check is recent
// (main/services/batch/batch.ts, docs/protocol.md "Batches from a CSV"): counted in the gateway's
// own request log, 3 requests per refund (the check's status, the return, the follow-up's
// status) when the batch starts within the window, 4 when the check is older (a status read
// again before each return). The gateway forgives nothing: repeats are new transactions.

import { afterAll, beforeAll, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../main/sandbox';
import { BATCH_CHECK_FRESH_MS, BatchService } from '../../main/services/batch/batch';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder, SHOP, shopClient } from '../support/shop';
import { CONTROL_KEY, createDesk, unforgiving, type Desk, type Started } from './support';

const ROWS = 12;

let sandbox: Sandbox;
let desk: Desk;
let paydesk: Started;

beforeAll(async () => {
  // Delay 0: a return is final at the first status that asks, so a row's count is exact.
  sandbox = await startSandbox({
    merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
    delayMs: 0,
    tickMs: 20,
    log: () => undefined,
    misbehaviour: unforgiving(0),
  });
  desk = createDesk(sandbox);
  paydesk = await desk.start();
});

afterAll(async () => {
  await paydesk.stop();
  await sandbox.close();
  desk.dispose();
});

/** Requests the gateway received while `work` ran, per refund row of the batch. */
async function requestsPerRow(work: () => Promise<void>): Promise<number> {
  const count = () => sandbox.received('STATUS') + sandbox.received('RETURN');
  const before = count();
  await work();
  return (count() - before) / ROWS;
}

/** Loads a file of ROWS refunds of distinct sales, then starts it `startedAfterMs` later. */
async function runBatch(startedAfterMs: number) {
  const client = shopClient(sandbox, CONTROL_KEY);
  const sales = await Promise.all(
    Array.from({ length: ROWS }, () => approvedOrder(client, 'SALE', '10.00')),
  );
  const csv = ['operation,orderid,amount,currency,reason']
    .concat(sales.map((id) => `refund,${id},2.50,EUR,Damaged goods`))
    .join('\n');
  let offset = 0;
  const batches = new BatchService(
    paydesk.db,
    paydesk.port,
    new Profiles(paydesk.db),
    paydesk.service,
    {
      operator: 'ann',
      now: () => Date.now() + offset,
    },
  );
  let id = 0;
  const perRow = await requestsPerRow(async () => {
    const { batch, rows } = await batches.load(desk.profileId, 'refunds.csv', csv, 4);
    expect(rows.filter((r) => r.problem)).toEqual([]);
    id = batch.id;
    offset = startedAfterMs;
    batches.start(batch.id);
    await batches.idle(batch.id);
  });
  const rows = batches.rows(id);
  expect(rows.map((r) => [r.state, r.status])).toEqual(rows.map(() => ['done', 'approved']));
  // One return per row at the gateway, each of 2.50.
  const returns = sandbox
    .orders(SHOP.endpointId)
    .filter((o) => o.kind === 'reversal' && sales.includes(o.parentOrderId ?? ''));
  expect(returns).toHaveLength(ROWS);
  return perRow;
}

it('sends 3 requests per refund when the file was checked recently', async () => {
  expect(await runBatch(0)).toBe(3);
});

it('sends 4 per refund when the check is older than the window: the status is read again', async () => {
  expect(await runBatch(BATCH_CHECK_FRESH_MS + 1_000)).toBe(4);
});
