// Issue 14's cases at the service level, on a real PostgreSQL: whole desks (order services on
// their own SQLite, their own keychain, a login of the team each) against one team journal and a
// sandbox that forgives nothing (a repeated request is a new refund), so every request that
// reaches it is counted.
// - two desks refunding one order at once: one refund reaches the gateway; the other desk is
//   told who is refunding it, or sees that refund counted;
// - a support login: refused by the database, nothing sent;
// - a desk killed mid-refund, after its write-ahead: another desk's start settles it by status;
// - the database stopped mid-batch: nothing sent that was not journaled; the batch resumes;
// - the person's role taken away mid-batch: the batch pauses saying why, as above.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

import { toBridgeError } from '../../main/bridge';
import type { Sandbox } from '../../main/sandbox';
import { StoreError } from '../../main/store/errors';
import type { JournalPort } from '../../main/store/journal/port';
import { withOrderLock } from '../../main/store/postgres/order-lock';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { postgresStore, type TeamStore } from '../support/service-stores';
import { approvedOrder, SHOP, shopClient, startShopSandbox } from '../support/shop';
import { CONTROL_KEY } from '../support/samples';
import { sleep, until } from '../support/wait';

const withPostgres = postgresForTests('the team service tests');
const FORGIVE_NOTHING = { noDedupe: true };
const ROUNDS = 6;

describe.skipIf(!withPostgres)('desks of a team on one journal (real PostgreSQL)', () => {
  let sandbox: Sandbox;
  let cluster: PgCluster;
  let store: TeamStore;

  beforeAll(async () => {
    sandbox = await startShopSandbox(CONTROL_KEY, { forgiveNothing: true });
    cluster = await startCluster();
    store = await postgresStore(cluster, 'services_team', {
      baseUrl: sandbox.baseUrl,
      controlKey: CONTROL_KEY,
    });
  });
  afterAll(async () => {
    await cluster?.resume().catch(() => undefined);
    await store?.close();
    await sandbox?.close();
    await cluster?.stop();
  });

  const reversals = (orderId: string) =>
    sandbox
      .orders(SHOP.endpointId)
      .filter((o) => o.parentOrderId === orderId && o.kind === 'reversal');
  const sale = (amount: string) => approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', amount);
  const refund = (orderid: string, clientOrderId: string) => ({
    profileId: store.profileId,
    orderid,
    clientOrderId,
    reason: 'Damaged',
  });

  it(`two desks refunding one order at once: one refund reaches the gateway (${ROUNDS} rounds)`, async () => {
    const ann = await store.desk({ person: 'ann', desk: 'Front-1' });
    const bob = await store.desk({ person: 'bob', desk: 'Back-1' });
    const seen = { busy: 0, counted: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const saleId = await sale('10.00');
      const ids = [ann.orders.openAction().clientOrderId, bob.orders.openAction().clientOrderId];
      const outcomes = await Promise.allSettled([
        ann.orders.refund(refund(saleId, ids[0] as string)),
        bob.orders.refund(refund(saleId, ids[1] as string)),
      ]);
      const sent = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.flatMap((o) =>
        o.status === 'rejected' ? [o.reason as unknown] : [],
      );
      expect(sent).toHaveLength(1);
      expect(refused).toHaveLength(1);
      const error = refused[0] as Error;
      if (error instanceof StoreError) {
        // Held by the other desk at that moment: told who, in a plain sentence.
        expect(error.code).toBe('BUSY');
        expect(error.message).toMatch(
          new RegExp(
            `^(ann \\(desk Front-1\\)|bob \\(desk Back-1\\)) is refunding order ${saleId} right now; try again when they are done\\.$`,
          ),
        );
        seen.busy++;
      } else {
        // Decided after the other desk's entry: it counted that refund as pending.
        expect(error.message).toMatch(/pending|fully refunded/);
        seen.counted++;
      }
      for (const id of ids) await (id === ids[0] ? ann : bob).orders.settled(id);
      expect(reversals(saleId)).toHaveLength(1);
      const view = await bob.orders.lookup(store.profileId, { orderid: saleId });
      expect(view).toMatchObject({ refunded: '10.00', remainingRefundable: '0.00' });
    }
    console.log(
      `team services: ${ROUNDS} rounds of two desks refunding one order: ${ROUNDS} refunds at the gateway, the other desk told busy ${seen.busy}, saw it counted ${seen.counted}`,
    );
  }, 60_000);

  it('a desk finding the order held is told who holds it, in the words the screen shows', async () => {
    const saleId = await sale('10.00');
    const bob = await store.desk({ person: 'bob', desk: 'Back-1' });
    const holder = await store.team.team.connect('ann');
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = () => undefined as void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const annHolds = withOrderLock(
      holder,
      { profileId: store.profileId, orderId: saleId },
      { desk: 'Front-1', action: 'refunding' },
      async () => {
        holding();
        await released;
      },
    );
    await held;
    const error = await bob.orders
      .refund(refund(saleId, bob.orders.openAction().clientOrderId))
      .catch((e: unknown) => e);
    release();
    await annHolds;
    const sentence = `ann (desk Front-1) is refunding order ${saleId} right now; try again when they are done.`;
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'BUSY', message: sentence });
    expect(toBridgeError(error)).toMatchObject({ code: 'STORE', message: sentence });
    expect(reversals(saleId)).toHaveLength(0);
  }, 30_000);

  it('a support login cannot refund: the database refuses, nothing reaches the gateway', async () => {
    const saleId = await sale('10.00');
    const sam = await store.desk({ person: 'sam', desk: 'Help-1' });
    const first = sam.orders.openAction().clientOrderId;
    const refused = await sam.orders.refund(refund(saleId, first)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused).toMatchObject({ code: 'NOT_ALLOWED' });
    expect((refused as Error).message).toMatch(/sam is in paydesk_support.*Nothing was sent/);
    // A desk running other code, which skips the courtesy check: the database is the guard.
    const rogue = await store.desk({
      person: 'sam',
      desk: 'Help-2',
      wrap: (port) =>
        Object.assign(Object.create(port) as JournalPort, {
          requireWritable: () => Promise.resolve(),
        }),
    });
    const second = rogue.orders.openAction().clientOrderId;
    const denied = await rogue.orders.refund(refund(saleId, second)).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(StoreError);
    expect(denied).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(reversals(saleId)).toHaveLength(0);
    const ann = await store.desk({ person: 'ann' });
    expect(await ann.port.get(first)).toBeUndefined();
    expect(await ann.port.get(second)).toBeUndefined();
    // Looking the order up still works for support.
    expect(await sam.orders.lookup(store.profileId, { orderid: saleId })).toMatchObject({
      status: 'approved',
      refunded: '0.00',
    });
  }, 30_000);

  it('a desk killed mid-refund, after its write-ahead, is settled by another desk: one refund', async () => {
    const saleId = await sale('10.00');
    // The refund's answer takes 1.5 s: the desk is killed while its request is at the gateway.
    sandbox.misbehave({ ...FORGIVE_NOTHING, latencyMs: 1_500, operations: ['RETURN'] });
    const clientOrderId = 'pd-killed-' + Date.now().toString(36);
    const refundsBefore = sandbox.received('RETURN');
    // The desk's own SQLite, in a folder removed here: the killed desk cannot remove it.
    const folder = mkdtempSync(join(tmpdir(), 'paydesk-child-desk-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'service-desk.ts'),
        store.team.team.urlOf('ann'),
        'Front-3',
        store.profileId,
        sandbox.baseUrl,
        CONTROL_KEY,
        saleId,
        clientOrderId,
        folder,
      ],
      { stdio: 'pipe' },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await until(() => out.includes('entry sending'), 20_000, `the desk's write-ahead (${out})`);
    // On the wire: the gateway has the request, its answer is held back for 1.5 s.
    await until(
      () => sandbox.received('RETURN') > refundsBefore,
      10_000,
      'the refund at the gateway',
    );
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(out).not.toContain('done');
    expect(out).not.toMatch(/entry (acknowledged|final|unknown|refused)/);
    await until(() => reversals(saleId).length === 1, 5_000, 'the refund at the gateway');
    sandbox.misbehave(FORGIVE_NOTHING);

    const bob = await store.desk({ person: 'bob', desk: 'Back-1' });
    expect(await bob.port.get(clientOrderId)).toMatchObject({ state: 'sending', operator: 'ann' });
    await bob.orders.reconcile();
    expect(await bob.orders.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(reversals(saleId)).toHaveLength(1);
    const view = await bob.orders.lookup(store.profileId, { orderid: saleId });
    expect(view).toMatchObject({ refunded: '10.00', remainingRefundable: '0.00' });
    // Every step after the write-ahead is the settling desk's, under its login.
    const owner = await store.team.team.owner();
    const { rows } = await owner.query<{ recorded_by: string; desk: string; state: string }>(
      `SELECT a.recorded_by, a.desk, a.state FROM paydesk.journal_answers a
         JOIN paydesk.journal j ON j.id = a.journal_id WHERE j.client_orderid = $1 ORDER BY a.id`,
      [clientOrderId],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatchObject({ recorded_by: 'bob', desk: 'Back-1' });
    expect(rows.at(-1)?.state).toBe('final');
  }, 60_000);

  it('the database stopped while a refund is at the gateway: it stays pending, said sent, settled once', async () => {
    const saleId = await sale('10.00');
    const written: string[] = [];
    const desk = await store.desk({
      person: 'ann',
      desk: 'Front-5',
      service: { onEntryChanged: (entry) => written.push(entry.state) },
    });
    sandbox.misbehave({ ...FORGIVE_NOTHING, latencyMs: 800, operations: ['RETURN'] });
    const { clientOrderId } = desk.orders.openAction();
    const attempt = desk.orders.refund(refund(saleId, clientOrderId)).catch((e: unknown) => e);
    await until(() => written.includes('sending'), 10_000, 'the write-ahead');
    await cluster.halt();
    const error = await attempt;
    // Sent, its answer not written: never "not sent", and the clerk is told not to send again.
    expect(error).toMatchObject({ code: 'NOT_RECORDED' });
    expect((error as Error).message).toMatch(/was sent to the gateway.*Do not send it again/);
    expect(reversals(saleId)).toHaveLength(1);
    // A retry while the journal is away sends nothing.
    await expect(desk.orders.refund(refund(saleId, clientOrderId))).rejects.toThrow();
    await cluster.resume();
    sandbox.misbehave(FORGIVE_NOTHING);
    expect(await desk.orders.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(reversals(saleId)).toHaveLength(1);
  }, 60_000);

  it('the database stopped mid-batch: nothing sent that was not journaled; it resumes after', async () => {
    const desk = await store.desk({ person: 'ann', desk: 'Front-4' });
    const orders = await Promise.all(Array.from({ length: 8 }, () => sale('10.00')));
    sandbox.misbehave({ ...FORGIVE_NOTHING, latencyMs: 150, operations: ['RETURN'] });
    const csv = [
      'operation,orderid,amount,currency,reason,note',
      ...orders.map((id) => `refund,${id},1.00,EUR,Damaged,`),
    ].join('\n');
    const { batch } = await desk.batches.load(store.profileId, 'month-end.csv', csv, 2);
    desk.batches.start(batch.id);
    await until(() => desk.batches.get(batch.id).progress.done >= 2, 20_000, 'two rows done');
    await cluster.halt();
    await desk.batches.idle(batch.id);
    const whileAway = desk.batches.get(batch.id);
    expect(whileAway.state).toBe('paused');
    expect(whileAway.pausedBecause).toMatch(/^Paydesk cannot reach the team journal's database/);
    expect(whileAway.progress.done).toBeLessThan(8);
    const sentBeforeResume = orders.flatMap((id) => reversals(id));
    await sleep(300);
    // Nothing more left while the journal was away.
    expect(orders.flatMap((id) => reversals(id))).toHaveLength(sentBeforeResume.length);
    await cluster.resume();

    let resumes = 0;
    for (; resumes < 10 && desk.batches.get(batch.id).state !== 'done'; resumes++) {
      desk.batches.start(batch.id);
      await desk.batches.idle(batch.id);
      if (desk.batches.get(batch.id).state !== 'done') await sleep(300);
    }
    sandbox.misbehave(FORGIVE_NOTHING);
    expect(desk.batches.get(batch.id)).toMatchObject({
      state: 'done',
      progress: { done: 8, failed: 0, left: 0 },
    });
    for (const id of orders) expect(reversals(id)).toHaveLength(1);
    // Every refund the gateway got was in the journal, and is final there.
    for (const r of orders.flatMap((id) => reversals(id)))
      expect(await desk.port.get(r.clientOrderId)).toMatchObject({ state: 'final' });
    console.log(
      `team services: batch of 8 with the database stopped after ${whileAway.progress.done} rows: resumed ${resumes} time(s), 8 refunds at the gateway, each journaled`,
    );
  }, 90_000);

  it('a role taken away mid-batch pauses it saying why; nothing fails, and it resumes after', async () => {
    const desk = await store.desk({ person: 'ann', desk: 'Front-5' });
    const orders = await Promise.all(Array.from({ length: 8 }, () => sale('10.00')));
    sandbox.misbehave({ ...FORGIVE_NOTHING, latencyMs: 150, operations: ['RETURN'] });
    const csv = [
      'operation,orderid,amount,currency,reason,note',
      ...orders.map((id) => `refund,${id},1.00,EUR,Damaged,`),
    ].join('\n');
    const { batch } = await desk.batches.load(store.profileId, 'month-end.csv', csv, 2);
    const owner = await store.team.team.owner();
    try {
      desk.batches.start(batch.id);
      await until(() => desk.batches.get(batch.id).progress.done >= 2, 20_000, 'two rows done');
      // The DBA takes ann out of paydesk_finance while the batch runs.
      await owner.query('REVOKE paydesk_finance FROM ann');
      await desk.batches.idle(batch.id);
      const refused = desk.batches.get(batch.id);
      expect(refused.state).toBe('paused');
      expect(refused.pausedBecause).toMatch(
        /^The team journal's database refused this|paydesk_finance/,
      );
      expect(refused.progress.failed).toBe(0);
      expect(refused.progress.left).toBeGreaterThan(0);
      const sent = orders.flatMap((id) => reversals(id)).length;
      await sleep(300);
      expect(orders.flatMap((id) => reversals(id))).toHaveLength(sent);
    } finally {
      await owner.query('GRANT paydesk_finance TO ann');
    }
    let resumes = 0;
    for (; resumes < 10 && desk.batches.get(batch.id).state !== 'done'; resumes++) {
      desk.batches.start(batch.id);
      await desk.batches.idle(batch.id);
      if (desk.batches.get(batch.id).state !== 'done') await sleep(300);
    }
    sandbox.misbehave(FORGIVE_NOTHING);
    expect(desk.batches.get(batch.id)).toMatchObject({
      state: 'done',
      progress: { done: 8, failed: 0, left: 0 },
    });
    for (const id of orders) expect(reversals(id)).toHaveLength(1);
  }, 90_000);
});
