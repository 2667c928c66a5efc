// Issue 9, reproduction 1: a refund left, the process was killed (kill -9) before the answer,
// and Paydesk was started again at once. The gateway is busy: it records the refund a moment
// later, and shows it in `status` later still, and it takes a repeat as a new refund. The
// restart must not close the entry as "not received" while the gateway has no record *yet*,
// and the clerk's retries (the same action, then a new one) must not refund twice. The order's
// figures are checked at every step.

import { spawn } from 'node:child_process';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { approvedOrder, shopClient } from '../support/shop';
import { ServiceError } from '../../main/services/errors';
import {
  CONTROL_KEY,
  createDesk,
  reversalsOf,
  startUnforgivingSandbox,
  summary,
  unforgiving,
} from './support';
import { until } from '../support/wait';

const ROUNDS = 3;
let held = 0;

afterAll(() => summary('restart-after-crash', ROUNDS, held));

function journalState(file: string, clientOrderId: string): string | undefined {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare('SELECT state FROM journal WHERE client_orderid = ?')
      .get(clientOrderId) as { state: string } | undefined;
    return row?.state;
  } finally {
    db.close();
  }
}

/** Starts a refund in a child process and kills it once the gateway has its request. */
async function refundThenDie(
  sandbox: Sandbox,
  file: string,
  profileId: string,
  orderId: string,
  clientOrderId: string,
): Promise<void> {
  const returnsBefore = sandbox.received('RETURN');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '..', 'support', 'fixtures', 'refund-then-die.ts'),
      file,
      profileId,
      orderId,
      clientOrderId,
      '3.00',
    ],
    {
      env: { ...process.env, PAYDESK_TEST_CONTROL_KEY: CONTROL_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await until(
    () => journalState(file, clientOrderId) === 'sending',
    15_000,
    `the journal entry (${output})`,
  );
  // Written before the request leaves; killed once the gateway has it (it holds its answer).
  await until(() => sandbox.received('RETURN') > returnsBefore, 15_000, `the request (${output})`);
  child.kill('SIGKILL');
  await exited;
  expect(output).not.toContain('answered');
}

it('a restart right after a crash keeps the refund unsettled until the gateway shows it, and refunds once', async () => {
  const sandbox = await startUnforgivingSandbox(1_500);
  const desk = createDesk(sandbox);
  try {
    const direct = shopClient(sandbox, CONTROL_KEY);
    for (let round = 0; round < ROUNDS; round++) {
      const saleId = await approvedOrder(direct, 'SALE', '10.00');
      // The gateway holds every refund 600 ms before recording it, then hides it 1.5 s more.
      sandbox.misbehave(unforgiving(1_500, { latencyMs: 600, operations: ['RETURN'] }));
      const clientOrderId = `pd-crash-${round}-${Date.now().toString(36)}`;
      await refundThenDie(sandbox, desk.file, desk.profileId, saleId, clientOrderId);

      // The next start, at once.
      const paydesk = await desk.start({ quarantineMs: 10_000 });
      const { service, journal } = paydesk;
      const reconciled = await service.reconcile();
      const entry = reconciled.find((e) => e.clientOrderId === clientOrderId);
      expect(entry?.state).toBe('unknown'); // unsettled, never "not received" by guesswork
      const pending = await service.lookup(desk.profileId, { orderid: saleId });
      expect(pending.pending.map((p) => [p.clientOrderId, p.amount])).toEqual([
        [clientOrderId, '3.00'],
      ]);
      expect(pending.remainingRefundable).toBe('7.00');
      expect(pending.actions.refund.allowed).toBe(false);

      // The clerk retries the same action: nothing is sent, they are told why.
      const retry = service.refund({
        profileId: desk.profileId,
        orderid: saleId,
        clientOrderId,
        amount: '3.00',
        reason: 'Damaged',
      });
      await expect(retry).rejects.toThrow(ServiceError);
      await expect(retry).rejects.toThrow(/may have reached the gateway/);
      // And then opens a new one: refused while the first is unsettled.
      await expect(
        service.refund({
          profileId: desk.profileId,
          orderid: saleId,
          clientOrderId: service.openAction().clientOrderId,
          amount: '3.00',
          reason: 'Damaged',
        }),
      ).rejects.toThrow(/still pending/);

      // The gateway shows it at last; the follow-up adopts it.
      const settled = await service.settled(clientOrderId);
      expect(settled).toMatchObject({ state: 'final', status: 'approved' });
      expect(journal.get(clientOrderId)).toMatchObject({
        state: 'final',
        status: 'approved',
        amountMinor: 300n,
      });
      const after = await service.lookup(desk.profileId, { orderid: saleId });
      expect(after).toMatchObject({ refunded: '3.00', remainingRefundable: '7.00', pending: [] });
      expect(reversalsOf(sandbox, saleId)).toHaveLength(1);
      sandbox.misbehave(unforgiving(1_500));
      await paydesk.stop();
      held++;
    }
  } finally {
    await sandbox.close();
    desk.dispose();
  }
}, 60_000);
