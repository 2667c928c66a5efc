// 1,000 refunds over 200 orders against a gateway that forgives nothing (repeats are new
// refunds, recorded refunds show in `status` only after a while), with lost answers and 500s,
// while Paydesk's process is killed (SIGKILL) at random points (seeded) and started again at
// once. Afterwards, at the gateway: no order refunded above its amount, no action sent twice,
// nothing closed as "not received" that the gateway has. In the journal: every entry final or
// explicitly unsettled, with sums that match the gateway's.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { formatMinor } from '../../main/gateway/amount';
import { approvedOrder, SHOP, shopClient } from '../support/shop';
import { CONTROL_KEY, createDesk, startUnforgivingSandbox, summary, unforgiving } from './support';
import { until } from '../support/wait';
import type { Plan } from './fixtures/refund-worker';

const ORDERS = Number(process.env.PAYDESK_SOAK_ORDERS ?? 200);
const REFUNDS_PER_ORDER = 5;
const KILLS = 6;
const SEED = 0x5eed;

/** A small seeded generator (mulberry32): the same kill points on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it(`${ORDERS * REFUNDS_PER_ORDER} refunds over ${ORDERS} orders, killed ${KILLS} times: never twice, never above the amount`, async () => {
  const started = Date.now();
  const sandbox = await startUnforgivingSandbox(300);
  const desk = createDesk(sandbox);
  try {
    const direct = shopClient(sandbox, CONTROL_KEY);
    const orders: string[] = [];
    for (let i = 0; i < ORDERS; i += 20) {
      const batch = Math.min(20, ORDERS - i);
      orders.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () => approvedOrder(direct, 'SALE', '10.00')),
        )),
      );
    }
    const plan: Plan = {
      orders,
      refundsPerOrder: REFUNDS_PER_ORDER,
      amount: '1.00',
      lanes: 25,
      // As the batch worker's (fixtures/batch-worker.ts): longer than the sandbox's lag on a
      // busy machine.
      quarantineMs: 4_000,
    };
    const planFile = join(desk.dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    sandbox.misbehave(
      unforgiving(300, {
        dropAnswerShare: 0.1,
        serverErrorShare: 0.05,
        operations: ['RETURN', 'STATUS'],
      }),
    );

    const random = seeded(SEED);
    let kills = 0;
    let complete = false;
    for (let run = 0; run <= KILLS && !complete; run++) {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, 'fixtures', 'refund-worker.ts'),
          desk.file,
          desk.profileId,
          planFile,
        ],
        {
          env: { ...process.env, PAYDESK_TEST_CONTROL_KEY: CONTROL_KEY },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      await until(() => output.includes('ready') || child.exitCode !== null, 30_000, 'start');
      if (run < KILLS) {
        // Killed at a random point of its work: mid-send, mid-write, mid-follow-up.
        await new Promise((r) => setTimeout(r, 300 + Math.floor(random() * 1_500)));
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          kills++;
        }
        await exited;
        complete = output.includes('complete');
      } else {
        const code = await exited;
        expect(code, output).toBe(0);
        complete = output.includes('complete');
      }
    }
    expect(complete).toBe(true);
    expect(kills).toBeGreaterThanOrEqual(5);
    sandbox.misbehave({});

    // At the gateway.
    const atGateway = sandbox.orders(SHOP.endpointId).filter((o) => o.kind === 'reversal');
    const perAction = new Map<string, number>();
    for (const r of atGateway)
      perAction.set(r.clientOrderId, (perAction.get(r.clientOrderId) ?? 0) + 1);
    const sentTwice = [...perAction.values()].filter((n) => n > 1).length;
    const refundedAt = new Map<string, bigint>();
    for (const r of atGateway.filter((o) => o.status === 'approved'))
      refundedAt.set(
        r.parentOrderId ?? '',
        (refundedAt.get(r.parentOrderId ?? '') ?? 0n) + r.amountMinor,
      );
    const overRefunded = [...refundedAt.values()].filter((sum) => sum > 1000n).length;
    expect(sentTwice).toBe(0);
    expect(overRefunded).toBe(0);

    // In the journal (a fresh start reads it).
    const paydesk = await desk.start();
    const entries = [...paydesk.journal.iterate()];
    const states = new Set(entries.map((e) => e.state));
    expect([...states].every((s) => s === 'final' || s === 'refused' || s === 'unknown')).toBe(
      true,
    );
    const approved = entries.filter((e) => e.state === 'final' && e.status === 'approved');
    const journalSum = new Map<string, bigint>();
    for (const e of approved)
      journalSum.set(
        e.targetOrderId ?? '',
        (journalSum.get(e.targetOrderId ?? '') ?? 0n) + (e.amountMinor ?? 0n),
      );
    for (const orderId of orders)
      expect(formatMinor(journalSum.get(orderId) ?? 0n), orderId).toBe(
        formatMinor(refundedAt.get(orderId) ?? 0n),
      );
    // Closed as not received or not sent: the gateway has none of them.
    const closedUnsent = entries.filter((e) => e.state === 'refused');
    for (const e of closedUnsent) expect(perAction.get(e.clientOrderId) ?? 0).toBe(0);
    expect(approved).toHaveLength(ORDERS * REFUNDS_PER_ORDER);
    // The figures the clerk sees, for a sample of orders.
    for (const orderId of orders.slice(0, 10)) {
      const view = await paydesk.service.lookup(desk.profileId, { orderid: orderId });
      expect(view).toMatchObject({ refunded: '5.00', remainingRefundable: '5.00', pending: [] });
    }
    await paydesk.stop();
    const seconds = Math.round((Date.now() - started) / 1000);
    summary(
      'soak',
      ORDERS * REFUNDS_PER_ORDER,
      approved.length,
      `orders ${ORDERS} kills ${kills} sent-twice ${sentTwice} over-refunded ${overRefunded} closed-unsent ${closedUnsent.length} unsettled ${entries.filter((e) => e.state === 'unknown').length} in ${seconds}s`,
    );
  } finally {
    await sandbox.close();
    desk.dispose();
  }
}, 180_000);
