// Every entry whose final word is owed is asked about until it has it: found by the soak test,
// where a refund stayed "acknowledged" for good after a kill. The gateway had the refund, but
// the restart's one `status` call met a 500, nobody followed the entry afterwards, and the
// clerk's retries returned "acknowledged" without asking. Also: a follow-up must not end
// before an unsettled entry's quarantine does, and only the gateway's own "no record" (never a
// failed read) may close an entry as not received.

import { afterEach, beforeEach, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { approvedOrder, shopClient } from '../support/shop';
import {
  CONTROL_KEY,
  createDesk,
  reversalsOf,
  startUnforgivingSandbox,
  summary,
  unforgiving,
  type Desk,
} from './support';
import { sleep } from '../support/wait';

let sandbox: Sandbox;
let desk: Desk;
const tally = { tried: 0, held: 0 };

beforeEach(async () => {
  sandbox = await startUnforgivingSandbox(400);
  desk = createDesk(sandbox);
  tally.tried++;
});

afterEach(async () => {
  await sandbox.close();
  desk.dispose();
  if (tally.tried === 4) summary('follow-up', tally.tried, tally.held);
});

const refund = (orderid: string, clientOrderId: string) => ({
  profileId: desk.profileId,
  orderid,
  clientOrderId,
  amount: '2.00',
  reason: 'Damaged',
});

/** A refund the gateway acknowledged, left so by a process that stopped before its final word. */
async function acknowledgedThenStopped(): Promise<{ saleId: string; clientOrderId: string }> {
  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  const first = await desk.start();
  const { clientOrderId } = first.service.openAction();
  await first.service.refund(refund(saleId, clientOrderId));
  const stopped = first.stop();
  expect(first.journal.get(clientOrderId)?.state).toBe('acknowledged');
  await stopped;
  return { saleId, clientOrderId };
}

it('an acknowledged entry whose status could not be read at start is still followed to its end', async () => {
  const { saleId, clientOrderId } = await acknowledgedThenStopped();
  sandbox.misbehave(unforgiving(400, { serverErrorShare: 1, operations: ['STATUS'] }));
  const paydesk = await desk.start();
  await paydesk.service.reconcile();
  expect(paydesk.journal.get(clientOrderId)?.state).toBe('acknowledged');
  sandbox.misbehave(unforgiving(400));
  expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
    state: 'final',
    status: 'approved',
  });
  expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
  await paydesk.stop();
  tally.held++;
}, 20_000);

it("a clerk's retry of an acknowledged entry nobody follows asks the gateway again", async () => {
  const { saleId, clientOrderId } = await acknowledgedThenStopped();
  const paydesk = await desk.start();
  const retry = await paydesk.service.refund(refund(saleId, clientOrderId));
  expect(retry.replayed).toBe(true);
  expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
    state: 'final',
    status: 'approved',
  });
  expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
  await paydesk.stop();
  tally.held++;
}, 20_000);

it('an unsettled entry is asked about until its quarantine is over, whatever the cadence', async () => {
  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  // Polls 700 ms apart, a quarantine of 1 s: the follow-up must still ask once it is over.
  const paydesk = await desk.start({
    quarantineMs: 1_000,
    wait: { delayAfter: () => 700, giveUpAfterMs: 20_000 },
  });
  // A 500 before anything was recorded: it may have arrived, as far as Paydesk can tell.
  sandbox.misbehave(unforgiving(400, { serverErrorShare: 1, operations: ['RETURN'] }));
  const { clientOrderId } = paydesk.service.openAction();
  await expect(paydesk.service.refund(refund(saleId, clientOrderId))).rejects.toMatchObject({
    code: 'SERVER',
  });
  sandbox.misbehave(unforgiving(400));
  expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
    state: 'refused',
    errorCode: 'NOT_RECEIVED',
  });
  expect(reversalsOf(sandbox, saleId)).toHaveLength(0);
  await paydesk.stop();
  tally.held++;
}, 20_000);

it('a status that cannot be read when the quarantine ends never closes an entry as not received', async () => {
  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  const paydesk = await desk.start({ quarantineMs: 800 });
  // The gateway records the refund; its answer is lost; then every status read fails.
  sandbox.misbehave(unforgiving(400, { dropAnswerShare: 1, operations: ['RETURN'] }));
  const { clientOrderId } = paydesk.service.openAction();
  await expect(paydesk.service.refund(refund(saleId, clientOrderId))).rejects.toThrow();
  sandbox.misbehave(unforgiving(400, { serverErrorShare: 1, operations: ['STATUS'] }));
  await sleep(1_500);
  expect(paydesk.journal.get(clientOrderId)?.state).toBe('unknown');
  sandbox.misbehave(unforgiving(400));
  expect(await paydesk.service.settled(clientOrderId)).toMatchObject({
    state: 'final',
    status: 'approved',
  });
  expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
  await paydesk.stop();
  tally.held++;
}, 20_000);
