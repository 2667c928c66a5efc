// The journal as an audit trail, on the embedded sandbox's demo orders: every entry names what
// the clerk did (not only the gateway's operation), carries the shop's order id and the
// customer's e-mail from the status read before acting, and is found by either; a void records
// the amount it voided; the CSV has times with their offset and says how many entries it holds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { contentText } from '../../main/files';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';

let dataDir: string;
let app: PaydeskServices | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-audit-'));
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

async function started() {
  app = await PaydeskServices.start({
    dataDir,
    secrets: new MemorySecretStore(),
    operator: 'ann',
    wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
    sandboxDelayMs: 50,
  });
  const [profile] = await app.profiles.list();
  const profileId = profile!.id;
  const services = app;
  const order = (coid: string) => services.orders.lookup(profileId, { client_orderid: coid });
  const act = async (
    kind: 'refund' | 'capture' | 'void' | 'cancel',
    coid: string,
    extra: { amount?: string; reason?: string } = {},
  ) => {
    const target = await order(coid);
    const { clientOrderId } = services.orders.openAction();
    await services.orders[kind]({
      profileId,
      orderid: target.orderId,
      clientOrderId,
      ...(kind === 'capture' ? {} : { reason: 'Customer request' }),
      ...extra,
    });
    return { target, entry: await services.orders.settled(clientOrderId) };
  };
  return { services, act, order };
}

describe('the journal as an audit trail', () => {
  it("finds a refund by the shop's order id and by the customer's e-mail, and names it a partial refund", async () => {
    const { services, act } = await started();
    const { target } = await act('refund', 'demo-sale-1003', { amount: '5.00' });

    const byShopId = await services.journal.search({ orderRef: 'demo-sale-1003' }, 0, 10);
    expect(byShopId.total).toBe(1);
    expect(byShopId.rows[0]).toMatchObject({
      targetOrderId: target.orderId,
      targetClientOrderId: 'demo-sale-1003',
      email: 'maria.garcia@example.com',
      action: 'partial-refund',
      actionLabel: 'Partial refund',
      operation: 'RETURN',
      amount: '5.00',
    });
    // Both the gateway's orderid and the e-mail (any case) find it too.
    expect((await services.journal.search({ orderRef: target.orderId }, 0, 10)).total).toBe(1);
    expect(
      (await services.journal.search({ email: 'Maria.Garcia@example.com' }, 0, 10)).total,
    ).toBe(1);
    expect((await services.journal.search({ action: 'partial-refund' }, 0, 10)).total).toBe(1);
    expect((await services.journal.search({ action: 'refund' }, 0, 10)).total).toBe(0);

    const csv = await contentText(() => services.journal.csvChunks({ orderRef: 'demo-sale-1003' }));
    const [head, line, ...rest] = csv.trim().split('\r\n');
    expect(rest).toEqual([]);
    const cells = Object.fromEntries(
      head!.split(',').map((name, i) => [name, line!.split(',')[i]]),
    );
    expect(cells).toMatchObject({
      action: 'Partial refund',
      operation: 'RETURN',
      target_client_orderid: 'demo-sale-1003',
      email: 'maria.garcia@example.com',
    });
    // ISO 8601 with the desk's offset, never a bare time.
    expect(cells.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    expect(cells.final_at).toMatch(/[+-]\d\d:\d\d$/);
  });

  it('gives one entry in full: every field, the redacted request, every answer in order', async () => {
    const { services, act } = await started();
    const { target, entry } = await act('refund', 'demo-sale-1003', { amount: '5.00' });
    const detail = await services.journal.entry(entry!.clientOrderId);
    expect(detail.row).toMatchObject({
      actionLabel: 'Partial refund',
      email: 'maria.garcia@example.com',
    });
    expect(detail.request).toMatchObject({
      client_orderid: entry!.clientOrderId,
      orderid: target.orderId,
      amount: '5.00',
      currency: 'USD',
      comment: 'Customer request',
    });
    expect(detail.history.map((h) => [h.state, h.status])).toEqual([
      ['sending', null],
      ['acknowledged', null],
      ['final', 'approved'],
    ]);
    expect(detail.history[2]!.orderId).toBe(entry!.orderId);
    await expect(services.journal.entry('pd-nothing-here')).rejects.toThrow(/No journal entry/);
  });

  it('labels a cancel of a hold "Cancel hold" (not "Refund"), and the filter finds it', async () => {
    const { services, act } = await started();
    await act('cancel', 'demo-auth-2002', { reason: 'Customer cancelled' });
    const found = await services.journal.search({ action: 'cancel-hold' }, 0, 10);
    expect(found.total).toBe(1);
    expect(found.rows[0]).toMatchObject({
      actionLabel: 'Cancel hold',
      operation: 'RETURN',
      targetClientOrderId: 'demo-auth-2002',
      email: 'car.rental@example.com',
    });
  });

  it('records the amount a void voided, and a full capture as a capture', async () => {
    const { services, act } = await started();
    await act('void', 'demo-sale-1003', { reason: 'Duplicate order' });
    await act('capture', 'demo-auth-2003');
    const rows = (await services.journal.search({}, 0, 10)).rows;
    expect(rows.find((r) => r.operation === 'VOID')).toMatchObject({
      actionLabel: 'Void',
      amount: '15.75',
      currency: 'USD',
    });
    expect(rows.find((r) => r.operation === 'CAPTURE')).toMatchObject({
      actionLabel: 'Capture',
      amount: '420.00',
    });
  });
});

describe('currencies with other decimals than two', () => {
  it('shows a JPY sale as 5000 JPY, refuses a refund of 0.50 JPY before sending, and refunds 1000 JPY', async () => {
    const { services, act, order } = await started();
    const yen = await order('demo-sale-1010');
    expect(yen).toMatchObject({
      amount: '5000',
      currency: 'JPY',
      remainingRefundable: '5000',
      actions: { refund: { allowed: true, max: '5000' } },
    });
    await expect(act('refund', 'demo-sale-1010', { amount: '0.50' })).rejects.toMatchObject({
      field: 'amount',
      message: expect.stringMatching(/JPY amounts have none/) as string,
    });
    expect((await services.journal.search({ orderRef: 'demo-sale-1010' }, 0, 10)).total).toBe(0);
    const { entry } = await act('refund', 'demo-sale-1010', { amount: '1000' });
    expect(entry).toMatchObject({ state: 'final', status: 'approved', amountMinor: 1000n });
    expect(await order('demo-sale-1010')).toMatchObject({
      refunded: '1000',
      remainingRefundable: '4000',
    });
  });

  it('handles a KWD sale with three decimals: the sandbox and the client agree on the checksum', async () => {
    const { act, order } = await started();
    expect(await order('demo-sale-1011')).toMatchObject({ amount: '12.345', currency: 'KWD' });
    const { entry } = await act('refund', 'demo-sale-1011', { amount: '2.345' });
    expect(entry).toMatchObject({ state: 'final', status: 'approved', amountMinor: 2345n });
    expect(await order('demo-sale-1011')).toMatchObject({
      refunded: '2.345',
      remainingRefundable: '10.000',
    });
  });
});

describe('an order refunded outside Paydesk stays "at least" after a refund of ours', () => {
  it('demo-sale-1001: refund 10.00 from Paydesk, then refunded is at least 10.00 and what is left unknown', async () => {
    const { act, order } = await started();
    const { entry } = await act('refund', 'demo-sale-1001', { amount: '10.00' });
    expect(entry).toMatchObject({ state: 'final', status: 'approved' });
    expect(await order('demo-sale-1001')).toMatchObject({
      refunded: '10.00',
      refundedAtLeast: true,
      remainingRefundable: null,
      actions: { refund: { allowed: true } },
    });
    // The gateway still names what is really left: 49.90 - 19.90 - 10.00 = 20.00.
    await expect(act('refund', 'demo-sale-1001', { amount: '20.01' })).rejects.toThrow(
      /above what is left to return, 20\.00 EUR/,
    );
  });
});

describe('recent orders', () => {
  it('lists orders looked up or acted on, newest first, found by shop id, orderid, e-mail or last four', async () => {
    const { services, act, order } = await started();
    const [profile] = await services.profiles.list();
    const recent = (query?: string) =>
      services.orders.recentOrders(profile!.id, query).map((r) => r.clientOrderId);
    expect(recent()).toEqual([]);
    const first = await order('demo-sale-1002');
    await order('demo-auth-2001');
    await act('refund', 'demo-sale-1003', { amount: '1.00' });
    expect(recent()).toEqual(['demo-sale-1003', 'demo-auth-2001', 'demo-sale-1002']);
    expect(recent('SALE-100')).toEqual(['demo-sale-1003', 'demo-sale-1002']);
    expect(recent(first.orderId)).toEqual(['demo-sale-1002']);
    expect(recent('li.wei@')).toEqual(['demo-sale-1002']);
    expect(recent('4444')).toEqual(['demo-sale-1002']);
    // Only the last four digits are kept: the first ones of the card find nothing.
    expect(recent('5555')).toEqual([]);
    expect(recent('1111')).toEqual(['demo-sale-1003', 'demo-auth-2001']);
    expect(recent('%')).toEqual([]);
    // Looking an order up again moves it to the top, with its state as last seen.
    await order('demo-sale-1002');
    expect(recent()[0]).toBe('demo-sale-1002');
    expect(services.orders.recentOrders(profile!.id)[0]).toMatchObject({
      email: 'li.wei@example.com',
      lastFour: '4444',
      amount: '120.00',
      currency: 'EUR',
      stateLabel: 'Partly refunded',
    });
  });
});
