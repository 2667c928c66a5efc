// One set of cases, two stores: the journal port on the desk's SQLite and on a team's PostgreSQL
// must behave the same for everything the services rely on (state machine, refusals, figures'
// inputs, search), so the services need not know which one they run on.

import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  JournalError,
  type EntryResult,
  type GatewayAnswer,
  type JournalEntry,
  type JournalPort,
  type JournalStep,
  type NewJournalEntry,
} from '../../main/store/journal/port';
import { journalAdapters, OPERATOR, type PortHarness } from '../support/journal-ports';
import { rejection } from '../support/team';

const adapters = journalAdapters('the journal port conformance tests on PostgreSQL');

describe.each(adapters)('journal port on $name', ({ open, skip }) => {
  let harness: PortHarness;
  let journal: JournalPort;
  let profileId: string;

  beforeAll(async () => {
    if (skip) return;
    harness = await open();
    journal = harness.port;
    profileId = `p-${randomUUID().slice(0, 8)}`;
    await harness.addProfile(profileId);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const refund = (extra: Partial<NewJournalEntry> = {}): NewJournalEntry => ({
    clientOrderId: `pd-${randomUUID()}`,
    profileId,
    operator: OPERATOR,
    operation: 'return',
    targetOrderId: '9001',
    amountMinor: 1250n,
    currency: 'EUR',
    reason: 'Damaged',
    email: 'Buyer@Example.com',
    fields: { amount: '12.50', control: 'secret-sum', credit_card_number: '4111111111111111' },
    ...extra,
  });

  describe.skipIf(skip)('cases', () => {
    it('writes an entry before sending: sending, its amount exact, its summary redacted', async () => {
      const until = new Date(Date.now() + 60_000);
      const written = await journal.begin(
        refund({ amountMinor: 9_007_199_254_740_993n, lease: { owner: 'host:1:a', until } }),
      );
      expect(written).toMatchObject({
        operator: OPERATOR,
        operation: 'return',
        state: 'sending',
        orderId: null,
        amountMinor: 9_007_199_254_740_993n,
        currency: 'EUR',
        status: null,
        finalAt: null,
        leaseOwner: 'host:1:a',
        settledBy: null,
      });
      expect(written.summary).toEqual({ amount: '12.50', credit_card_number: '411111******1111' });
      expect(written.sentAt).not.toBeNull();
      expect(Date.parse(written.leaseUntil ?? '')).toBe(until.getTime());
      expect(await journal.get(written.clientOrderId)).toEqual(written);
      expect(await journal.get('pd-nobody')).toBeUndefined();
    });

    it('lets a desk that can journal go ahead', async () => {
      await expect(journal.requireWritable('send a refund')).resolves.toBeUndefined();
    });

    it('refuses a reused client_orderid, saying every operation needs a fresh one', async () => {
      const first = await journal.begin(refund());
      const again = await rejection(journal.begin(refund({ clientOrderId: first.clientOrderId })));
      expect(again).toBeInstanceOf(JournalError);
      expect(again.message).toBe(
        `client_orderid ${first.clientOrderId} is already in the journal; every operation needs a fresh one.`,
      );
    });

    it('refuses card data in free text, naming the field, and stores nothing', async () => {
      for (const [extra, field] of [
        [{ reason: 'card 4111 1111 1111 1111 was charged twice' }, 'reason'],
        [{ note: 'PAN 4111111111111111' }, 'note'],
        [{ fields: { amount: '1.00', comment: 'card 4111111111111111' } }, 'comment'],
      ] as const) {
        const entry = refund(extra);
        const refused = await rejection(journal.begin(entry));
        expect(refused).toBeInstanceOf(JournalError);
        expect(refused.message).toBe(`The ${field} holds card data; it was not stored.`);
        expect(await journal.get(entry.clientOrderId)).toBeUndefined();
      }
    });

    it('moves sending -> acknowledged -> final, keeping the orderid; a repeat changes nothing', async () => {
      const { clientOrderId } = await journal.begin(refund());
      const acked = await journal.acknowledge(clientOrderId, '7001');
      expect(acked).toMatchObject({ state: 'acknowledged', orderId: '7001', leaseOwner: null });
      const final = await journal.finish(clientOrderId, { status: 'approved' });
      expect(final).toMatchObject({ state: 'final', status: 'approved', orderId: '7001' });
      expect(final.finalAt).not.toBeNull();
      expect(await journal.finish(clientOrderId, { status: 'approved' })).toEqual(final);
      expect(await journal.acknowledge(clientOrderId, '7001')).toEqual(final);
      expect(
        (await rejection(journal.markUnknown(clientOrderId, { message: 'late' }))).message,
      ).toBe(`The journal entry ${clientOrderId} is final (approved) and cannot become unknown.`);

      const changed = await rejection(journal.finish(clientOrderId, { status: 'declined' }));
      expect(changed).toBeInstanceOf(JournalError);
      expect(changed.message).toBe(
        `The journal entry ${clientOrderId} is final (approved) and cannot become final.`,
      );
      const refused = await rejection(journal.refuse(clientOrderId, { message: 'no' }));
      expect(refused.message).toBe(
        `The journal entry ${clientOrderId} is final (approved) and cannot become refused.`,
      );
    });

    it('records an acknowledgement and its final answer together, both in its history', async () => {
      const { clientOrderId } = await journal.begin(refund());
      const final = await journal.acknowledgeAndFinish(
        clientOrderId,
        { orderId: '7002', result: { 'redirect-url': 'https://pay.example/7002' } },
        { status: 'approved', orderId: '7002' },
      );
      expect(final).toMatchObject({
        state: 'final',
        status: 'approved',
        orderId: '7002',
        leaseOwner: null,
        result: { 'redirect-url': 'https://pay.example/7002' },
      });
      expect(await journal.get(clientOrderId)).toEqual(final);
      expect((await journal.history(clientOrderId)).map((s) => [s.state, s.orderId])).toEqual([
        ['sending', null],
        ['acknowledged', '7002'],
        ['final', '7002'],
      ]);
      // A person's settlement meanwhile stays: the final answer is not written over it.
      const settled = await journal.begin(refund());
      await journal.settleByHand(settled.clientOrderId, {
        outcome: 'approved',
        reason: 'seen approved in the gateway back office',
        by: OPERATOR,
      });
      const kept = await journal.acknowledgeAndFinish(
        settled.clientOrderId,
        { orderId: '7003' },
        { status: 'declined', orderId: '7003' },
      );
      expect(kept).toMatchObject({ state: 'final', status: 'approved', orderId: '7003' });
      expect(kept.settledBy).not.toBeNull();
    });

    it('writes the same entry and history for both answers together as for each apart', async () => {
      const step = (s: JournalStep) => ({ ...s, at: undefined });
      const cases: [{ orderId: string | undefined; result?: EntryResult }, GatewayAnswer][] = [
        [{ orderId: '7201', result: { 'card-ref-id': 'c-7' } }, { status: 'approved' }],
        [
          { orderId: undefined },
          {
            status: 'declined',
            orderId: '7202',
            errorCode: '3',
            errorMessage: 'Refused by the bank',
            result: { 'redirect-url': 'https://pay.example/7202' },
          },
        ],
        [{ orderId: '7203' }, { status: 'approved', orderId: '7203' }],
      ];
      for (const [acknowledged, answer] of cases) {
        const apart = await journal.begin(refund());
        await journal.acknowledge(apart.clientOrderId, acknowledged.orderId, acknowledged.result);
        const oneByOne = await journal.finish(apart.clientOrderId, answer);
        const together = await journal.begin(refund());
        const both = await journal.acknowledgeAndFinish(
          together.clientOrderId,
          acknowledged,
          answer,
        );
        const same = (e: JournalEntry) => ({
          ...e,
          id: 0,
          clientOrderId: '',
          createdAt: '',
          updatedAt: '',
          sentAt: '',
          finalAt: e.finalAt === null ? null : '',
        });
        expect(same(both)).toEqual(same(oneByOne));
        expect(await journal.get(together.clientOrderId)).toEqual(both);
        expect((await journal.history(together.clientOrderId)).map(step)).toEqual(
          (await journal.history(apart.clientOrderId)).map(step),
        );
      }
      // Already acknowledged (by the follow-up, say): the final answer is its one new step.
      const acked = await journal.begin(refund());
      await journal.acknowledge(acked.clientOrderId, '7204');
      await journal.acknowledgeAndFinish(
        acked.clientOrderId,
        { orderId: '7204' },
        { status: 'approved' },
      );
      expect((await journal.history(acked.clientOrderId)).map((s) => s.state)).toEqual([
        'sending',
        'acknowledged',
        'final',
      ]);
    });

    it("keeps what the gateway answered beyond its status in the entry's result, merged", async () => {
      const { clientOrderId } = await journal.begin(refund());
      const acked = await journal.acknowledge(clientOrderId, '7100', { 'card-ref-id': 'c-1' });
      expect(acked.result).toEqual({ 'card-ref-id': 'c-1' });
      const final = await journal.finish(clientOrderId, {
        status: 'approved',
        result: { 'redirect-url': 'https://gate.example.com/r/1' },
      });
      expect(final.result).toEqual({
        'card-ref-id': 'c-1',
        'redirect-url': 'https://gate.example.com/r/1',
      });
      const late = await journal.acknowledge(clientOrderId, '7100', {
        'recurring-payment-id': 'r-9',
      });
      expect(late).toMatchObject({ state: 'final', result: { 'recurring-payment-id': 'r-9' } });
      expect(await journal.get(clientOrderId)).toEqual(late);
    });

    it('lets a final entry learn a gateway orderid it lacked, and only that', async () => {
      const { clientOrderId } = await journal.begin(refund());
      await journal.finish(clientOrderId, { status: 'approved' });
      const late = await journal.acknowledge(clientOrderId, '7002');
      expect(late).toMatchObject({ state: 'final', status: 'approved', orderId: '7002' });
      expect(await journal.acknowledge(clientOrderId, '7003')).toMatchObject({ orderId: '7002' });
    });

    it('an unsettled entry (answer lost) stays pending until the gateway or a person settles it', async () => {
      const { clientOrderId } = await journal.begin(refund());
      const unknown = await journal.markUnknown(clientOrderId, {
        code: 'TIMEOUT',
        message: 'no answer in 30 s',
      });
      expect(unknown).toMatchObject({
        state: 'unknown',
        errorCode: 'TIMEOUT',
        errorMessage: 'no answer in 30 s',
        finalAt: null,
      });
      expect(await journal.markUnknown(clientOrderId, { message: 'again' })).toEqual(unknown);
      const acked = await journal.acknowledge(clientOrderId, '7010');
      expect(acked.state).toBe('acknowledged');
      // The gateway's word came: a later lost answer adds nothing, and an answer cannot refuse it.
      expect(await journal.markUnknown(clientOrderId, { message: 'x' })).toEqual(acked);
      const refused = await rejection(journal.refuse(clientOrderId, { message: 'x' }));
      expect(refused.message).toBe(
        `The journal entry ${clientOrderId} is acknowledged and cannot become refused.`,
      );
    });

    it('refuses from sending or unknown; a refused entry is closed', async () => {
      const { clientOrderId } = await journal.begin(refund());
      await journal.markUnknown(clientOrderId, { message: 'cut' });
      const refused = await journal.refuse(clientOrderId, { code: '2', message: 'no such order' });
      expect(refused).toMatchObject({
        state: 'refused',
        errorCode: '2',
        errorMessage: 'no such order',
      });
      expect(refused.finalAt).not.toBeNull();
      expect(await journal.refuse(clientOrderId, { message: 'again' })).toEqual(refused);
      for (const move of [
        () => journal.acknowledge(clientOrderId, '1'),
        () => journal.finish(clientOrderId, { status: 'approved' }),
        () => journal.markUnknown(clientOrderId, { message: 'x' }),
      ]) {
        expect((await rejection(move())).message).toMatch(/is refused and cannot become/);
      }
    });

    it('settles by hand only an entry still waiting, with a reason, naming who did', async () => {
      const approved = await journal.begin(refund());
      const noReason = await rejection(
        journal.settleByHand(approved.clientOrderId, {
          outcome: 'approved',
          reason: ' ',
          by: OPERATOR,
        }),
      );
      expect(noReason.message).toBe('Settling an entry by hand needs a reason.');
      const settled = await journal.settleByHand(approved.clientOrderId, {
        outcome: 'approved',
        reason: 'seen approved in the gateway back office',
        by: OPERATOR,
      });
      expect(settled).toMatchObject({
        state: 'final',
        status: 'approved',
        settledBy: OPERATOR,
        settleReason: 'seen approved in the gateway back office',
      });
      const again = await rejection(
        journal.settleByHand(approved.clientOrderId, {
          outcome: 'approved',
          reason: 'x',
          by: OPERATOR,
        }),
      );
      expect(again.message).toBe(
        `The journal entry ${approved.clientOrderId} is already final; only an entry still waiting for the gateway can be settled by hand.`,
      );

      const lost = await journal.begin(refund());
      await journal.acknowledge(lost.clientOrderId, '7020');
      expect(
        await journal.settleByHand(lost.clientOrderId, {
          outcome: 'not-received',
          reason: 'no record after a week',
          by: OPERATOR,
        }),
      ).toMatchObject({
        state: 'refused',
        errorCode: 'SETTLED_BY_HAND',
        errorMessage: `Settled by hand as not received by ${OPERATOR}: no record after a week`,
        settledBy: OPERATOR,
      });
    });

    it('says plainly when there is no entry to change', async () => {
      const missing = await rejection(journal.acknowledge('pd-missing', '1'));
      expect(missing).toBeInstanceOf(JournalError);
      expect(missing.message).toBe('No journal entry for client_orderid pd-missing.');
    });

    it('renews, takes over and ends a lease; leaving sending ends it', async () => {
      const { clientOrderId } = await journal.begin(refund());
      const until = new Date(Date.now() + 30_000);
      await journal.lease(clientOrderId, { owner: 'host:2:b', until });
      expect(await journal.get(clientOrderId)).toMatchObject({ leaseOwner: 'host:2:b' });
      await journal.lease(clientOrderId, null);
      expect(await journal.get(clientOrderId)).toMatchObject({
        leaseOwner: null,
        leaseUntil: null,
      });
      await journal.lease(clientOrderId, { owner: 'host:3:c', until });
      expect(await journal.markUnknown(clientOrderId, { message: 'x' })).toMatchObject({
        leaseOwner: null,
        leaseUntil: null,
      });
    });

    it('claims an order: the decision sees its other entries, pending ones included', async () => {
      const orderId = `o-${randomUUID()}`;
      const first = await journal.begin(refund({ targetOrderId: orderId }));
      const seen: string[][] = [];
      const clientOrderId = `pd-${randomUUID()}`;
      const claimed = await journal.claim(
        { profileId, orderId, clientOrderId, action: 'refunding' },
        (entries) => {
          seen.push(entries.map((e) => `${e.clientOrderId}:${e.state}`));
          return {
            entry: refund({ clientOrderId, targetOrderId: orderId, amountMinor: 100n }),
            decided: 'signed',
          };
        },
      );
      expect(seen).toEqual([[`${first.clientOrderId}:sending`]]);
      expect(claimed.claimed).toBeUndefined();
      if (claimed.claimed) return;
      expect(claimed.decided).toBe('signed');
      expect(claimed.entry).toMatchObject({ state: 'sending', amountMinor: 100n });
      expect((await journal.forTarget(orderId)).map((e) => e.id)).toEqual([
        first.id,
        claimed.entry.id,
      ]);
    });

    it('a claim of an action id already in the journal returns it and decides nothing', async () => {
      const orderId = `o-${randomUUID()}`;
      const entry = await journal.begin(refund({ targetOrderId: orderId }));
      let decided = 0;
      const again = await journal.claim(
        { profileId, orderId, clientOrderId: entry.clientOrderId, action: 'refunding' },
        () => {
          decided++;
          return { entry: refund(), decided: null };
        },
      );
      expect(again).toEqual({ claimed: entry });
      expect(decided).toBe(0);
    });

    it('a decision that refuses writes nothing', async () => {
      const orderId = `o-${randomUUID()}`;
      const refusal = new Error('Only 0.00 EUR is left to refund.');
      const thrown = await rejection(
        journal.claim(
          { profileId, orderId, clientOrderId: `pd-${randomUUID()}`, action: 'refunding' },
          () => {
            throw refusal;
          },
        ),
      );
      expect(thrown).toBe(refusal);
      expect(await journal.forTarget(orderId)).toEqual([]);
    });

    it('a decision that writes an entry for another order than the one held writes nothing', async () => {
      const orderId = `o-${randomUUID()}`;
      const clientOrderId = `pd-${randomUUID()}`;
      const wrong = await rejection(
        journal.claim({ profileId, orderId, clientOrderId, action: 'refunding' }, () => ({
          entry: refund({ clientOrderId, targetOrderId: 'another-order' }),
          decided: null,
        })),
      );
      expect(wrong.message).toBe(
        `A claim on order ${orderId} (${clientOrderId}) cannot write an entry for order another-order (${clientOrderId}).`,
      );
      expect(await journal.get(clientOrderId)).toBeUndefined();
    });

    describe('reading', () => {
      let own: string;
      let entries: JournalEntry[];
      beforeAll(async () => {
        if (skip) return;
        own = `p-${randomUUID().slice(0, 8)}`;
        await harness.addProfile(own);
        const write = (extra: Partial<NewJournalEntry>) =>
          journal.begin(refund({ profileId: own, ...extra }));
        const a = await write({
          operation: 'capture',
          targetOrderId: 'r-1',
          email: 'a@shop.example',
        });
        const b = await write({ targetOrderId: 'r-1', email: 'B@Shop.Example' });
        const c = await write({ targetOrderId: 'r-2', email: 'c@shop.example' });
        await journal.acknowledge(a.clientOrderId, 'g-1');
        await journal.finish(a.clientOrderId, { status: 'approved' });
        await journal.markUnknown(b.clientOrderId, { message: 'cut' });
        entries = [a, b, c];
      });

      it('lists what a start must reconcile, oldest first, per profile', async () => {
        const pending = await journal.inFlight(own);
        expect(pending.map((e) => [e.clientOrderId, e.state])).toEqual([
          [entries[1]?.clientOrderId, 'unknown'],
          [entries[2]?.clientOrderId, 'sending'],
        ]);
        const everyProfile = (await journal.inFlight()).map((e) => e.clientOrderId);
        expect(everyProfile).toEqual(expect.arrayContaining(pending.map((e) => e.clientOrderId)));
      });

      it('searches newest first with the same filters, counting all matches', async () => {
        const ids = async (filter: Parameters<JournalPort['search']>[0], offset = 0, limit = 100) =>
          (await journal.search({ profileId: own, ...filter }, offset, limit)).rows.map(
            (e) => e.clientOrderId,
          );
        const [a, b, c] = entries.map((e) => e.clientOrderId);
        expect(await ids({})).toEqual([c, b, a]);
        expect(await ids({ orderRef: ' r-1 ' })).toEqual([b, a]);
        expect(await ids({ orderRef: 'g-1' })).toEqual([a]);
        expect(await ids({ orderRef: c ?? '' })).toEqual([c]);
        expect(await ids({ email: 'b@shop.example' })).toEqual([b]);
        expect(await ids({ state: 'final' })).toEqual([a]);
        expect(await ids({ status: 'approved' })).toEqual([a]);
        expect(await ids({ pending: true })).toEqual([c, b]);
        expect(await ids({ operation: 'capture' })).toEqual([a]);
        expect(await ids({ from: entries[1]?.createdAt })).toEqual(expect.arrayContaining([c, b]));
        expect(await ids({ to: entries[1]?.createdAt })).not.toContain(b);
        const page = await journal.search({ profileId: own }, 1, 1);
        expect(page).toMatchObject({ total: 3, offset: 1, limit: 1 });
        expect(page.rows.map((e) => e.clientOrderId)).toEqual([b]);
      });

      it('iterates every match newest first, and the journal can be used meanwhile', async () => {
        const seen: string[] = [];
        for await (const entry of journal.iterate({ profileId: own })) {
          seen.push(entry.clientOrderId);
          expect(await journal.get(entry.clientOrderId)).toBeDefined();
        }
        expect(seen).toEqual(entries.map((e) => e.clientOrderId).reverse());
        const pending: string[] = [];
        for await (const entry of journal.iterate({ profileId: own, pending: true }))
          pending.push(entry.clientOrderId);
        expect(pending).toHaveLength(2);
      });
    });
  });
});
