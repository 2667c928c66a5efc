// Payouts through the one action path, against the sandbox over real HTTP with a gateway that
// forgives nothing (noDedupe): one step (v2 PAYOUT) and two (v4 check, then pay).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { TransportError } from '../../main/gateway/errors';
import type { RequestOperation } from '../../main/gateway/operations';
import { ActionPath } from '../../main/services/action/path';
import { NO_RSA_KEY, PayoutService, type PayoutRequest } from '../../main/services/payouts';
import { Profiles } from '../../main/store/sqlite/profiles';
import { openDesk, type Desk } from '../support/desk';
import { CARD_PAYOUT } from '../support/samples';

const CARD = '4444555566661111';
let desk: Desk;

beforeEach(async () => {
  desk = await openDesk();
  desk.sandbox.misbehave({ noDedupe: true });
});
afterEach(() => desk.close());

const payouts = () => desk.sandbox.orders('1111').filter((o) => o.kind === 'payout');

function payout(patch: Partial<PayoutRequest> = {}): PayoutRequest {
  return {
    profileId: desk.profileId,
    clientOrderId: desk.path.openAction().clientOrderId,
    ...CARD_PAYOUT,
    ...patch,
  };
}

/** Runs `send` with the answer dropped after the gateway recorded it. */
async function withLostAnswer(operation: RequestOperation, send: () => Promise<unknown>) {
  desk.sandbox.misbehave({ noDedupe: true, dropAnswerShare: 1, operations: [operation] });
  await expect(send()).rejects.toThrow(TransportError);
  desk.sandbox.misbehave({ noDedupe: true });
}

describe('one-step payout (v2 PAYOUT)', () => {
  it('pays a card, follows it to approved, and keeps the card number only masked', async () => {
    const request = payout();
    const { entry } = await desk.payouts.send(request);
    expect(entry).toMatchObject({ operation: 'PAYOUT', amountMinor: 2510n, operator: 'ann' });
    const final = await desk.path.settled(request.clientOrderId);
    expect(final).toMatchObject({ state: 'final', status: 'approved' });
    expect(final?.result.destination).toBe('card 444455******1111');
    expect(payouts()).toHaveLength(1);
    // Nowhere in the journal file's rows is the full number.
    const raw = JSON.stringify(desk.db.prepare('SELECT * FROM journal').all(), (_k, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(raw).not.toContain(CARD);
    expect(raw).toContain('444455******1111');
  });

  it('a lost answer is settled by status: one payout at the gateway, and a retry sends nothing', async () => {
    const request = payout({
      destination: {
        kind: 'bank',
        accountNumber: 'DE89370400440532013000',
        bankName: 'Commerzbank',
        bic: 'COBADEFFXXX',
      },
    });
    await withLostAnswer('PAYOUT', () => desk.payouts.send(request));
    expect(desk.journal.get(request.clientOrderId)?.state).toBe('unknown');
    const retry = await desk.payouts.send(request);
    expect(retry.replayed).toBe(true);
    expect(await desk.path.settled(request.clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(payouts()).toHaveLength(1);
  });

  it('refuses a payout without description or with a bad BIC, saying what to fix, and journals nothing', async () => {
    await expect(desk.payouts.send(payout({ description: ' ' }))).rejects.toThrow(
      /Describe the payout/,
    );
    await expect(
      desk.payouts.send(
        payout({
          destination: {
            kind: 'bank',
            accountNumber: 'DE89370400440532013000',
            bankName: 'X',
            bic: 'NO',
          },
        }),
      ),
    ).rejects.toThrow(/BIC is 8 or 11/);
    await expect(
      desk.payouts.send(payout({ destination: { kind: 'card', cardNumber: '4444555566661112' } })),
    ).rejects.toThrow(/check digit/);
    expect(desk.journal.search().total).toBe(0);
  });
});

describe('two-step payout (v4 check, then pay)', () => {
  it('a check waits to be paid with who checked it; paying twice is impossible', async () => {
    const check = payout({ destination: { kind: 'phone', phone: '+44 7700 900123' } });
    await desk.payouts.check(check);
    expect(await desk.path.settled(check.clientOrderId)).toMatchObject({
      state: 'final',
      status: 'checked',
    });
    const waiting = await desk.payouts.toPay(desk.profileId);
    expect(waiting).toEqual([
      expect.objectContaining({
        clientOrderId: check.clientOrderId,
        amount: '25.10',
        destination: 'phone ****0123 (SBP)',
        checkedBy: 'ann',
        state: 'checked',
      }),
    ]);
    expect(payouts()[0]?.orderStage).toBe('payout_checked');

    const pay = { profileId: desk.profileId, checkClientOrderId: check.clientOrderId };
    const first = desk.path.openAction().clientOrderId;
    await desk.payouts.pay({ ...pay, clientOrderId: first });
    // A second pay, from another window with its own action id, is refused before sending.
    await expect(
      desk.payouts.pay({ ...pay, clientOrderId: desk.path.openAction().clientOrderId }),
    ).rejects.toThrow(/already paying this payout|already paid/);
    expect(await desk.path.settled(first)).toMatchObject({ state: 'final', status: 'approved' });
    await expect(
      desk.payouts.pay({ ...pay, clientOrderId: desk.path.openAction().clientOrderId }),
    ).rejects.toThrow(/already paid by ann/);
    expect(await desk.payouts.toPay(desk.profileId)).toEqual([]);
    expect(payouts()).toHaveLength(1);
    expect(payouts()[0]?.status).toBe('approved');
  });

  it('four eyes: the person who checked it is refused the pay, saying why; a colleague pays it', async () => {
    const profiles = new Profiles(desk.db);
    profiles.update(desk.profileId, { ...profiles.require(desk.profileId), payoutFourEyes: true });
    const check = payout();
    await desk.payouts.check(check);
    await desk.path.settled(check.clientOrderId);
    const pay = (payouts: PayoutService) =>
      payouts.pay({
        profileId: desk.profileId,
        checkClientOrderId: check.clientOrderId,
        clientOrderId: desk.path.openAction().clientOrderId,
      });
    await expect(pay(desk.payouts)).rejects.toThrow(
      'You (ann) checked this payout, and the profile "Shop" wants payouts paid by someone other than who checked them. Ask another finance colleague to pay it.',
    );
    expect(payouts()[0]?.orderStage).toBe('payout_checked');
    expect(desk.journal.search({ operation: 'PAYOUT_V4_PAY' }).total).toBe(0);

    const bob = new ActionPath(desk.port, desk.connections, {
      operator: 'bob',
      wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
    });
    try {
      const { entry } = await pay(new PayoutService(bob));
      expect(await bob.settled(entry.clientOrderId)).toMatchObject({
        state: 'final',
        status: 'approved',
        operator: 'bob',
      });
    } finally {
      await bob.close();
    }
    expect(payouts()).toHaveLength(1);
    expect(payouts()[0]?.status).toBe('approved');
  });

  it('lost answers of the check and of the pay are settled by status: one payout, paid once', async () => {
    const check = payout();
    await withLostAnswer('PAYOUT_V4_CHECK', () => desk.payouts.check(check));
    expect((await desk.payouts.toPay(desk.profileId))[0]?.state).toBe('checking');
    expect(await desk.path.settled(check.clientOrderId)).toMatchObject({ status: 'checked' });

    const pay = {
      profileId: desk.profileId,
      checkClientOrderId: check.clientOrderId,
      clientOrderId: desk.path.openAction().clientOrderId,
    };
    await withLostAnswer('PAYOUT_V4_PAY', () => desk.payouts.pay(pay));
    expect((await desk.payouts.toPay(desk.profileId))[0]?.state).toBe('paying');
    const retry = await desk.payouts.pay(pay);
    expect(retry.replayed).toBe(true);
    expect(await desk.path.settled(pay.clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(payouts()).toHaveLength(1);
    expect(payouts()[0]).toMatchObject({ status: 'approved' });
    expect(await desk.payouts.toPay(desk.profileId)).toEqual([]);
  });

  it('a pay answered with a server error, while the payout still shows checked, stays unsettled: never taken as paid', async () => {
    const check = payout();
    await desk.payouts.check(check);
    await desk.path.settled(check.clientOrderId);
    const pay = {
      profileId: desk.profileId,
      checkClientOrderId: check.clientOrderId,
      clientOrderId: desk.path.openAction().clientOrderId,
    };
    desk.sandbox.misbehave({ noDedupe: true, serverErrorShare: 1, operations: ['PAYOUT_V4_PAY'] });
    await expect(desk.payouts.pay(pay)).rejects.toThrow(/HTTP 500|fault/i);
    desk.sandbox.misbehave({ noDedupe: true });
    // The gateway shows the payout still checked: the pay has not reached it (yet).
    await expect(desk.payouts.pay(pay)).rejects.toThrow(/which has no record of it yet/);
    expect(desk.journal.get(pay.clientOrderId)?.state).toBe('unknown');
    expect(payouts()[0]?.orderStage).toBe('payout_checked');
    // And no second pay may start while this one is unsettled.
    await expect(
      desk.payouts.pay({ ...pay, clientOrderId: desk.path.openAction().clientOrderId }),
    ).rejects.toThrow(/already paying this payout/);
  });

  it("says its times as every screen does: local time with the desk's offset, never UTC", async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata'; // +05:30: a half-hour offset no UTC text could pass for
    try {
      const local = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30/;
      const check = payout();
      await desk.payouts.check(check);
      await desk.path.settled(check.clientOrderId);
      const pay = {
        profileId: desk.profileId,
        checkClientOrderId: check.clientOrderId,
        clientOrderId: desk.path.openAction().clientOrderId,
      };
      desk.sandbox.misbehave({
        noDedupe: true,
        serverErrorShare: 1,
        operations: ['PAYOUT_V4_PAY'],
      });
      await expect(desk.payouts.pay(pay)).rejects.toThrow(/HTTP 500|fault/i);
      desk.sandbox.misbehave({ noDedupe: true });
      const sentences = [
        // Unsettled: until when Paydesk keeps asking.
        await desk.payouts.pay(pay).catch((e: Error) => e.message),
        // Another pay while that one is unsettled: since when it is being paid.
        await desk.payouts
          .pay({ ...pay, clientOrderId: desk.path.openAction().clientOrderId })
          .catch((e: Error) => e.message),
      ];
      expect(sentences[0]).toMatch(/keeps asking until/);
      expect(sentences[1]).toMatch(/already paying this payout \(since /);
      for (const sentence of sentences) {
        expect(sentence).toMatch(local);
        expect(sentence).not.toMatch(/UTC/);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('a profile without an RSA key is told to go to Keys, and nothing is journaled', async () => {
    await expect(desk.payouts.check(payout({ profileId: desk.profileWithoutKey }))).rejects.toThrow(
      NO_RSA_KEY,
    );
    expect(NO_RSA_KEY).toMatch(/Open Keys/);
    expect(desk.journal.search().total).toBe(0);
    expect(payouts()).toHaveLength(0);
  });
});
