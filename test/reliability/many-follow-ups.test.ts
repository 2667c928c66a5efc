// More than ten orders followed at once (a busy clerk, a batch, a start with many entries in
// flight): each follow-up waits on its own abort signal, so Node never warns about a signal
// with too many listeners (MaxListenersExceededWarning), and closing still stops them all.
// Node 24 no longer warns for AbortSignal, but Electron's Node 22 does (past ten listeners), so
// the test counts the waits sharing one signal as well as listening for the warning.

import { afterEach, beforeEach, expect, it } from 'vitest';

import { abortableSleep } from '../../main/gateway/poll';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { approvedOrder, SHOP, shopClient } from '../support/shop';
import { CONTROL_KEY, createDesk, unforgiving, type Desk } from './support';

let sandbox: Sandbox;
let desk: Desk;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeEach(async () => {
  // Refunds stay processing for a second and a half: every follow-up is waiting at once.
  sandbox = await startSandbox({
    merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
    delayMs: 1_500,
    tickMs: 20,
    log: () => undefined,
    misbehaviour: unforgiving(300),
  });
  desk = createDesk(sandbox);
  process.on('warning', onWarning);
});

afterEach(async () => {
  process.off('warning', onWarning);
  await sandbox.close();
  desk.dispose();
});

it('follows 16 refunds at once without a listener warning, to their final status', async () => {
  const shop = shopClient(sandbox, CONTROL_KEY);
  const sales = await Promise.all(
    Array.from({ length: 16 }, () => approvedOrder(shop, 'SALE', '10.00')),
  );
  // Asked about every 200 ms: the waits between two questions overlap.
  const waiting = new Map<AbortSignal | undefined, number>();
  let mostOnOneSignal = 0;
  const sleep = async (ms: number, signal?: AbortSignal) => {
    const now = (waiting.get(signal) ?? 0) + 1;
    waiting.set(signal, now);
    mostOnOneSignal = Math.max(mostOnOneSignal, now);
    try {
      await abortableSleep(ms, signal);
    } finally {
      waiting.set(signal, (waiting.get(signal) ?? 1) - 1);
    }
  };
  const paydesk = await desk.start({
    wait: { delayAfter: () => 200, giveUpAfterMs: 20_000, sleep },
  });
  const ids = await Promise.all(
    sales.map(async (orderid) => {
      const { clientOrderId } = paydesk.service.openAction();
      await paydesk.service.refund({
        profileId: desk.profileId,
        orderid,
        clientOrderId,
        amount: '1.00',
        reason: 'Damaged',
      });
      return clientOrderId;
    }),
  );
  const settled = await Promise.all(ids.map((id) => paydesk.service.settled(id)));
  expect(settled.map((e) => e?.state)).toEqual(ids.map(() => 'final'));
  await paydesk.stop();
  // Warnings are emitted on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  expect(mostOnOneSignal).toBe(1);
}, 30_000);

it('closing stops every follow-up at once, leaving the entries in flight for the next start', async () => {
  const shop = shopClient(sandbox, CONTROL_KEY);
  const sales = await Promise.all(
    Array.from({ length: 12 }, () => approvedOrder(shop, 'SALE', '10.00')),
  );
  const paydesk = await desk.start();
  // The gateway processes slowly: every follow-up is waiting when the app quits.
  sandbox.misbehave({ noDedupe: true, visibilityDelayMs: 60_000 });
  const ids = await Promise.all(
    sales.map(async (orderid) => {
      const { clientOrderId } = paydesk.service.openAction();
      await paydesk.service
        .refund({
          profileId: desk.profileId,
          orderid,
          clientOrderId,
          amount: '1.00',
          reason: 'Damaged',
        })
        .catch(() => undefined);
      return clientOrderId;
    }),
  );
  for (const id of ids)
    expect(['sending', 'unknown', 'acknowledged']).toContain(paydesk.journal.get(id)?.state);
  // Resolves only when every follow-up has stopped; a follow-up left sleeping on the gateway's
  // minute of lag would outlast the test's time limit.
  await paydesk.stop();
}, 30_000);
