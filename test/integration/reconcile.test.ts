// Reconciliation against the real sandbox over HTTP, on both journal stores (the desk's SQLite,
// a team's PostgreSQL read through the same JournalPort): orders changed behind Paydesk's back
// (refunded elsewhere, declined after approval, an amount altered), an entry Paydesk still calls
// unsettled that the gateway knows, a restart in the middle, and a gateway answering 500s or
// not answering in time. The sandbox's request log proves that nothing but `status` was sent,
// and that no line was asked about twice.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GatewayClient } from '../../main/gateway/client';
import type { Sandbox, SandboxRequest } from '../../main/sandbox';
import { ReconcileService, type RunView } from '../../main/services/reconcile/reconcile';
import type { JournalPort } from '../../main/store/journal/port';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { Profiles } from '../../main/store/sqlite/profiles';
import { journalAdapters } from '../support/journal-ports';
import { orderDesk, type OrderDesk } from '../support/order-desk';
import { CONTROL_KEY, TEST_CARD } from '../support/samples';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';
import { sleep, until } from '../support/wait';

const fast = { delayAfter: () => 25, giveUpAfterMs: 20_000 };
const RETRY = { backoffMs: 10, maxBackoffMs: 40, attempts: 3, timeoutMs: 2_000 };
const FROM = new Date(Date.now() - 86_400_000).toISOString();
const TO = new Date(Date.now() + 86_400_000).toISOString();

interface Store {
  name: string;
  skip: boolean;
  /** The journal port on `db` (SQLite) or a team's (PostgreSQL); addProfile lets it name a profile. */
  open(db: Db): Promise<{
    port: (db: Db) => JournalPort;
    addProfile(id: string): Promise<void>;
    close(): Promise<void>;
  }>;
}

const postgres = journalAdapters('the reconciliation tests on PostgreSQL').find(
  (a) => a.name === 'PostgreSQL',
)!;

const STORES: Store[] = [
  {
    name: 'SQLite',
    skip: false,
    open: () =>
      Promise.resolve({
        port: (db) => new SqliteJournalPort(db),
        addProfile: () => Promise.resolve(),
        close: () => Promise.resolve(),
      }),
  },
  {
    name: 'PostgreSQL',
    skip: postgres.skip,
    async open() {
      const team = await postgres.open();
      return {
        port: () => team.port,
        addProfile: (id) => team.addProfile(id),
        close: () => team.close(),
      };
    },
  },
];

interface Scene {
  profileId: string;
  desk: OrderDesk;
  service: ReconcileService;
}

for (const store of STORES) {
  describe.skipIf(store.skip)(`reconciliation on ${store.name}`, () => {
    let dir: string;
    let file: string;
    let db: Db;
    let sandbox: Sandbox;
    let direct: GatewayClient;
    let opened: Awaited<ReturnType<Store['open']>>;
    let port: JournalPort;
    let profileCount = 0;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'paydesk-reconcile-'));
      file = join(dir, 'paydesk.sqlite');
      db = openDatabase(file);
      sandbox = await startShopSandbox(CONTROL_KEY);
      direct = shopClient(sandbox, CONTROL_KEY);
      opened = await store.open(db);
      port = opened.port(db);
    }, 120_000);

    afterAll(async () => {
      await sandbox.close();
      await opened.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A profile of its own for each test, so each run holds only that test's entries. */
    async function scene(): Promise<Scene> {
      const profileId = new Profiles(db).create({
        name: `Shop ${++profileCount}`,
        environment: 'sandbox',
        baseUrl: sandbox.baseUrl,
        endpointId: '1111',
        login: 'shop',
      }).id;
      await opened.addProfile(profileId);
      const desk = await orderDesk(db, port, { profileId, wait: fast });
      return { profileId, desk, service: reconciler(desk) };
    }

    const reconciler = (desk: OrderDesk) =>
      new ReconcileService(db, port, desk.profiles, desk.connections, {
        operator: 'ann',
        retry: RETRY,
        flushMs: 10,
      });

    async function finalEntry(clientOrderId: string) {
      await until(
        async () => (await port.get(clientOrderId))?.state === 'final',
        20_000,
        `entry ${clientOrderId} final`,
      );
      return (await port.get(clientOrderId))!;
    }

    async function refund(s: Scene, orderid: string, amount: string) {
      const { clientOrderId } = s.desk.orders.openAction();
      await s.desk.orders.refund({
        profileId: s.profileId,
        orderid,
        clientOrderId,
        amount,
        reason: 'Returned',
      });
      return finalEntry(clientOrderId);
    }

    async function finished(service: ReconcileService, run: RunView): Promise<RunView> {
      await until(() => service.view(run.id).state !== 'running', 30_000, 'the run to end');
      await service.settled(run.id);
      return service.view(run.id);
    }

    /** `count` sales the gateway holds, each an approved SALE entry in the journal. */
    async function approvedSales(s: Scene, count: number) {
      for (let i = 0; i < count; i++) {
        const id = `sale-${s.profileId}-${i}`;
        const ack = await direct.call('SALE', {
          client_orderid: id,
          amount: '1.00',
          currency: 'EUR',
          email: 'john@example.com',
          ipaddress: '203.0.113.7',
          order_desc: 'Order',
          ...TEST_CARD,
        });
        await port.begin({
          clientOrderId: id,
          profileId: s.profileId,
          operator: 'ann',
          operation: 'SALE',
          amountMinor: 100n,
          currency: 'EUR',
          fields: { client_orderid: id },
        });
        await port.finish(id, { status: 'approved', orderId: ack.orderId! });
      }
      await sleep(200); // every sale final at the gateway
    }

    const requestsSince = (count: number): readonly SandboxRequest[] =>
      sandbox.requests().slice(count);

    it('lists every disagreement with the gateway, sends nothing but status and settles nothing', async () => {
      const s = await scene();
      // A: refunded 2.00 by Paydesk, the rest refunded elsewhere.
      const a = await approvedOrder(direct, 'SALE', '10.00');
      await refund(s, a, '2.00');
      await direct.call('RETURN', {
        client_orderid: `elsewhere-${a}`,
        orderid: a,
        amount: '8.00',
        currency: 'EUR',
        comment: 'By phone',
      });
      // B: refunded 1.00 by Paydesk, the refund declined at the gateway afterwards.
      const b = await approvedOrder(direct, 'SALE', '5.00');
      const declined = await refund(s, b, '1.00');
      sandbox.alterOrder(declined.orderId!, {
        status: 'declined',
        reason: 'Reversed by the issuer',
      });
      // C: a hold captured 5.00 by Paydesk, the capture's amount altered to 4.00.
      const c = await approvedOrder(direct, 'PREAUTH', '10.00');
      const { clientOrderId: captureId } = s.desk.orders.openAction();
      await s.desk.orders.capture({
        profileId: s.profileId,
        orderid: c,
        clientOrderId: captureId,
        amount: '5.00',
      });
      const capture = await finalEntry(captureId);
      sandbox.alterOrder(capture.orderId!, { amountMinor: 400n });
      // D: a refund Paydesk still calls unsettled, which reached the gateway.
      const d = await approvedOrder(direct, 'SALE', '3.00');
      const unsettled = `unsettled-${d}`;
      await port.begin({
        clientOrderId: unsettled,
        profileId: s.profileId,
        operator: 'ann',
        operation: 'RETURN',
        targetOrderId: d,
        action: 'refund',
        amountMinor: 100n,
        currency: 'EUR',
        reason: 'Returned',
        fields: { client_orderid: unsettled, orderid: d, amount: '1.00', currency: 'EUR' },
      });
      await port.markUnknown(unsettled, { code: 'TIMEOUT', message: 'No answer' });
      await direct.call('RETURN', {
        client_orderid: unsettled,
        orderid: d,
        amount: '1.00',
        currency: 'EUR',
        comment: 'Returned',
      });
      // E: refunded in full by Paydesk: nothing to say.
      const e = await approvedOrder(direct, 'SALE', '3.00');
      const agreeing = await refund(s, e, '3.00');
      await sleep(200); // every order above is final at the gateway
      sandbox.misbehave({ noDedupe: true });

      const before = sandbox.requests().length;
      const run = await finished(
        s.service,
        await s.service.create({
          profileId: s.profileId,
          from: FROM,
          to: TO,
          perSecond: 50,
          atOnce: 3,
        }),
      );
      sandbox.misbehave({});

      expect(run).toMatchObject({
        state: 'done',
        progress: { total: 10, done: 10, left: 0, differs: 5, agrees: 5, unreadable: 0 },
      });
      const sent = requestsSince(before);
      expect(new Set(sent.map((r) => r.operation))).toEqual(new Set(['STATUS']));
      expect(sent).toHaveLength(10);
      const found = s.service.findings(run.id).map((l) => ({
        order: l.orderId,
        kinds: l.findings.map((f) => f.kind),
      }));
      expect(found).toEqual(
        expect.arrayContaining([
          { order: b, kinds: ['declined-after-approval'] },
          { order: c, kinds: ['amount-differs'] },
          { order: d, kinds: ['now-known'] },
          { order: a, kinds: ['refunded-elsewhere'] },
          { order: b, kinds: ['journal-only'] },
        ]),
      );
      expect(found).toHaveLength(5);
      const lines = s.service.findings(run.id);
      expect(lines.find((l) => l.clientOrderId === captureId)?.findings[0]?.message).toBe(
        'The journal says 5.00 EUR; the gateway says 4.00 EUR.',
      );
      expect(lines.find((l) => l.clientOrderId === unsettled)?.findings[0]?.message).toMatch(
        /^Paydesk still calls this entry unsettled; the gateway now says approved \(reversal_approved\), 1\.00 EUR\./,
      );
      expect(
        s.service.allLines(run.id).find((l) => l.clientOrderId === agreeing.clientOrderId)?.state,
      ).toBe('agrees');
      // Listed, never settled: the entry stays unsettled until a person settles it by hand.
      expect((await port.get(unsettled))?.state).toBe('unknown');
      expect((await port.get(declined.clientOrderId))?.status).toBe('approved');
      await s.desk.path.close();
    });

    it('resumes after a restart and never asks twice about a line it has done', async () => {
      let s = await scene();
      const COUNT = 24;
      await approvedSales(s, COUNT);
      const before = sandbox.requests().length;
      const run = await s.service.create({
        profileId: s.profileId,
        from: FROM,
        to: TO,
        perSecond: 40,
        atOnce: 2,
      });
      await until(() => s.service.view(run.id).progress.done >= 8, 20_000, 'a third of the lines');
      await s.service.close(); // the quit: requests under way get their answer, the run stays running
      await s.desk.path.close();
      const atClose = s.service.view(run.id).progress.done;
      expect(atClose).toBeLessThan(COUNT);
      expect(s.service.view(run.id).state).toBe('running');

      if (store.name === 'SQLite') {
        // The same file opened again, as the next start does.
        db.close();
        db = openDatabase(file);
        port = opened.port(db);
      }
      const desk = await orderDesk(db, port, { profileId: s.profileId, wait: fast });
      s = { ...s, desk, service: reconciler(desk) };
      expect(s.service.recover().map((r) => r.id)).toContain(run.id);
      const done = await finished(s.service, s.service.view(run.id));
      expect(done.progress).toMatchObject({ total: COUNT, done: COUNT, agrees: COUNT });
      const sent = requestsSince(before);
      expect(sent.every((r) => r.operation === 'STATUS')).toBe(true);
      const asked = new Map<string, number>();
      for (const r of sent) asked.set(r.clientOrderId!, (asked.get(r.clientOrderId!) ?? 0) + 1);
      expect(asked.size).toBe(COUNT);
      expect([...asked.values()].every((n) => n === 1)).toBe(true);
      await desk.path.close();
    });

    it('pauses: no request leaves until it is resumed, and each line is asked about once', async () => {
      const s = await scene();
      await approvedSales(s, 12);
      const before = sandbox.requests().length;
      const run = await s.service.create({
        profileId: s.profileId,
        from: FROM,
        to: TO,
        perSecond: 20,
        atOnce: 2,
      });
      await until(() => s.service.view(run.id).progress.done >= 3, 20_000, 'a few lines');
      expect(s.service.pause(run.id).state).toBe('paused');
      await s.service.settled(run.id);
      const paused = s.service.view(run.id);
      expect(paused).toMatchObject({ state: 'paused', pausing: false });
      expect(paused.progress.left).toBeGreaterThan(0);
      const atPause = sandbox.requests().length;
      expect(atPause - before).toBe(paused.progress.done);
      await sleep(300);
      expect(sandbox.requests().length).toBe(atPause);

      s.service.resume(run.id, { perSecond: 50, atOnce: 3 });
      // One run at a time per profile: a second would double what is asked of the gateway.
      await expect(
        s.service.create({ profileId: s.profileId, from: FROM, to: TO }),
      ).rejects.toMatchObject({
        code: 'NOT_ALLOWED',
        message: `Reconciliation ${run.id} of this profile is running: pause it, or wait for it to end, before starting another.`,
      });
      const done = await finished(s.service, s.service.view(run.id));
      expect(done).toMatchObject({ state: 'done', perSecond: 50, atOnce: 3 });
      expect(done.progress).toMatchObject({ total: 12, agrees: 12 });
      const asked = sandbox
        .requests()
        .slice(before)
        .map((r) => r.clientOrderId);
      expect(asked).toHaveLength(12);
      expect(new Set(asked).size).toBe(12);
      await s.desk.path.close();
    });

    it('a quit gives up a status the gateway is slow to answer, and the next start asks again', async () => {
      const s = await scene();
      await approvedSales(s, 2);
      sandbox.misbehave({ latencyMs: 1_500, operations: ['STATUS'] });
      const run = await s.service.create({
        profileId: s.profileId,
        from: FROM,
        to: TO,
        perSecond: 50,
        atOnce: 2,
      });
      await until(
        () => sandbox.requests().length > 0 && sandbox.requests().at(-1)?.operation === 'STATUS',
        5_000,
        'a status sent',
      );
      await s.service.close(50);
      // Given up, not answered: still to do, and the run goes on at the next start.
      expect(s.service.view(run.id)).toMatchObject({
        state: 'running',
        progress: { done: 0, left: 2 },
      });
      sandbox.misbehave({});
      const next = reconciler(s.desk);
      next.recover();
      const done = await finished(next, next.view(run.id));
      expect(done.progress).toMatchObject({ total: 2, agrees: 2 });
      await s.desk.path.close();
    });

    it('asks again when the gateway answers 500s, and marks a line it never could read, never a disagreement', async () => {
      const s = await scene();
      const orderIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const sale = await approvedOrder(direct, 'SALE', '4.00');
        orderIds.push(sale);
        await refund(s, sale, '1.00');
      }
      // Every second status answered 500: one at a time, each line is read at its second try at most.
      sandbox.misbehave({ serverErrorShare: 0.5, operations: ['STATUS'] });
      let before = sandbox.requests().length;
      const flaky = await finished(
        s.service,
        await s.service.create({
          profileId: s.profileId,
          from: FROM,
          to: TO,
          perSecond: 100,
          atOnce: 1,
        }),
      );
      expect(flaky.progress).toMatchObject({ total: 6, agrees: 6, unreadable: 0, differs: 0 });
      expect(requestsSince(before).every((r) => r.operation === 'STATUS')).toBe(true);

      // Every status answered 500: after its tries each line "could not be read".
      sandbox.misbehave({ serverErrorShare: 1, operations: ['STATUS'] });
      before = sandbox.requests().length;
      const down = await finished(
        s.service,
        await s.service.create({
          profileId: s.profileId,
          from: FROM,
          to: TO,
          perSecond: 100,
          atOnce: 2,
        }),
      );
      expect(down.progress).toMatchObject({ total: 6, unreadable: 6, differs: 0, agrees: 0 });
      expect(requestsSince(before)).toHaveLength(6 * RETRY.attempts);
      const line = s.service.findings(down.id)[0]!;
      expect(line).toMatchObject({ state: 'unreadable', findings: [] });
      expect(line.error).toMatch(
        /^The gateway's status could not be read after 3 tries: The gateway reported a fault on its side \(HTTP 500/,
      );

      // A gateway that does not answer in time is the same: asked again, then not read.
      sandbox.misbehave({ latencyMs: 400, operations: ['STATUS'] });
      const slow = new ReconcileService(db, port, s.desk.profiles, s.desk.connections, {
        operator: 'ann',
        retry: { ...RETRY, timeoutMs: 100 },
        flushMs: 10,
      });
      const timedOut = await finished(
        slow,
        await slow.create({
          profileId: s.profileId,
          from: FROM,
          to: TO,
          perSecond: 100,
          atOnce: 6,
        }),
      );
      expect(timedOut.progress).toMatchObject({ total: 6, unreadable: 6, differs: 0 });
      sandbox.misbehave({});
      await s.desk.path.close();
    });
  });
}
