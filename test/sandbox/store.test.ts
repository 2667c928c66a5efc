// The sandbox's store remembers what it read until its next write (main/sandbox/db.ts,
// Store.memo), so a client polling `status` is answered without walking SQLite every time.
// What a client would notice if that went wrong is a stale status: these tests hold the store
// to showing every change the moment it is made, to forgetting reads of a rolled-back
// transaction, and to reading a database file afresh (another process may write it).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { openDb, Store } from '../../main/sandbox/db';
import { coid, saleFields, startHarness, type Harness } from './harness';

let h: Harness | undefined;
let dir: string | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function newSale(store: Store) {
  return store.insertTx({
    endpoint_id: '1111',
    client_orderid: coid('sale'),
    operation: 'SALE',
    kind: 'sale',
    amount_minor: 1042n,
    currency: 'EUR',
    created_at: 0n,
  });
}

describe('status, read over and over', () => {
  it('shows each change of the order as soon as it is made', async () => {
    h = await startHarness();
    const harness = h;
    const sale = await harness.call('SALE', saleFields('123'));
    const orderid = sale.orderId ?? '';
    const status = () => harness.client.status({ orderid });
    for (let i = 0; i < 3; i++) expect((await status()).status).toBe('processing');

    await harness.settle();
    expect(await status()).toMatchObject({ status: 'approved', orderStage: 'sale_approved' });
    expect(await status()).toMatchObject({ status: 'approved', orderStage: 'sale_approved' });

    const refund = (amount: string) =>
      harness.call('RETURN', {
        client_orderid: coid('ret'),
        orderid,
        amount,
        currency: 'EUR',
        comment: 'item back',
      });
    await refund('2.00');
    expect((await status()).orderStage).toBe('sale_partially_reversed');
    await refund('8.42');
    expect((await status()).orderStage).toBe('sale_reversed');
  });

  it('finds an order by client_orderid once it exists, after being told it does not', async () => {
    h = await startHarness();
    const fields = saleFields('123');
    const clientOrderId = fields.client_orderid ?? '';
    await expect(h.client.status({ client_orderid: clientOrderId })).rejects.toThrow(/No order/);
    const sale = await h.call('SALE', fields);
    expect((await h.client.status({ client_orderid: clientOrderId })).orderId).toBe(sale.orderId);
  });
});

describe('the store between writes', () => {
  it('forgets what was read inside a transaction that rolled back', () => {
    const store = new Store(openDb());
    const sale = newSale(store);
    expect(() =>
      store.atomically(() => {
        store.updateTx(sale.id, { status: 'approved', stage: 'final' });
        expect(store.tx(sale.id)?.status).toBe('approved');
        throw new Error('something failed after the write');
      }),
    ).toThrow('something failed after the write');
    expect(store.tx(sale.id)).toMatchObject({ status: 'processing', stage: 'queued' });
    expect(store.txOf('1111', sale.id)?.status).toBe('processing');
    store.db.close();
  });

  it('shows a new follow-up and a new card reference of an order already read', () => {
    const store = new Store(openDb());
    const sale = newSale(store);
    expect(store.children(sale.id)).toEqual([]);
    expect(store.cardRefOfTx(sale.id)).toBeUndefined();
    const refund = store.insertTx({
      endpoint_id: '1111',
      client_orderid: coid('ret'),
      operation: 'RETURN',
      kind: 'reversal',
      parent_id: sale.id,
      amount_minor: 200n,
      currency: 'EUR',
      created_at: 0n,
    });
    const ref = store.insertCardRef({
      endpoint_id: '1111',
      source_tx_id: sale.id,
      card_bin: '444455',
      card_last4: '1111',
      card_type: 'VISA',
      card_holder: 'JOHN SMITH',
      card_exp_month: '12',
      card_exp_year: '2030',
      created_at: 0n,
    });
    expect(store.children(sale.id).map((tx) => tx.id)).toEqual([refund.id]);
    expect(store.cardRefOfTx(sale.id)?.id).toBe(ref.id);
    store.db.close();
  });

  it('hands out rows no caller can change for the next reader', () => {
    const store = new Store(openDb());
    const sale = newSale(store);
    const row = store.tx(sale.id);
    expect(() => {
      if (row) (row as { status: string }).status = 'approved';
    }).toThrow(TypeError);
    expect(store.tx(sale.id)?.status).toBe('processing');
    store.db.close();
  });

  it('reads a database file afresh: another connection may have changed it', () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-store-'));
    const file = join(dir, 'sandbox.sqlite');
    const mine = new Store(openDb(file));
    const other = new Store(openDb(file));
    const sale = newSale(mine);
    expect(mine.tx(sale.id)?.status).toBe('processing');
    other.updateTx(sale.id, { status: 'approved', stage: 'final' });
    expect(mine.tx(sale.id)?.status).toBe('approved');
    mine.db.close();
    other.db.close();
  });
});
