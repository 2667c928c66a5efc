// A refund's write-ahead entry is synced to disk off the main thread (main/store/durability.ts
// WalSync): the refund leaves only after that fsync, and when the fsync fails nothing leaves
// and the entry says so, against the real sandbox and a real SQLite file.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { MemorySecretStore } from '../../main/secrets';
import { Connections } from '../../main/services/connection';
import { OrderService } from '../../main/services/orders';
import { openDatabase, type Db } from '../../main/store/database';
import { syncFile } from '../../main/store/durability';
import { Journal } from '../../main/store/journal';
import { Profiles } from '../../main/store/profiles';
import { SqliteJournalPort } from '../../main/store/sqlite-port';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';

const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';

let dir: string;
let db: Db;
let sandbox: Sandbox;
let profileId: string;
let service: OrderService | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-write-ahead-sync-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  sandbox = await startShopSandbox(CONTROL_KEY);
  profileId = new Profiles(db).create({
    name: 'Sandbox',
    environment: 'sandbox',
    baseUrl: sandbox.baseUrl,
    endpointId: '1111',
    login: 'shop',
  }).id;
});

afterEach(async () => {
  await service?.close();
  await sandbox.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serviceSyncingBy(syncWal: (path: string) => Promise<void>) {
  const secrets = new MemorySecretStore();
  await secrets.set(profileId, 'control-key', CONTROL_KEY);
  service = new OrderService(
    db,
    new SqliteJournalPort(db, new Journal(db), { syncWal }),
    new Connections(new Profiles(db), secrets),
    { operator: 'ann', wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 } },
  );
  return service;
}

const returns = () => sandbox.orders('1111').filter((o) => o.kind === 'reversal').length;

it('sends the refund only after its entry is synced to disk', async () => {
  const orderId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  const synced: { at: number; returnsThen: number }[] = [];
  const orders = await serviceSyncingBy(async (path) => {
    await syncFile(path);
    synced.push({ at: synced.length, returnsThen: returns() });
  });
  const { clientOrderId } = orders.openAction();
  const refund = await orders.refund({
    profileId,
    orderid: orderId,
    clientOrderId,
    amount: '4.00',
    reason: 'Damaged',
  });
  expect(refund.entry.state).not.toBe('refused');
  expect(synced).toEqual([{ at: 0, returnsThen: 0 }]);
  expect(returns()).toBe(1);
});

it('sends nothing when the disk refuses the sync, and the entry says it was not sent', async () => {
  const orderId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  const orders = await serviceSyncingBy(() =>
    Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })),
  );
  const { clientOrderId } = orders.openAction();
  await expect(
    orders.refund({
      profileId,
      orderid: orderId,
      clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    }),
  ).rejects.toMatchObject({
    code: 'IO',
    message: expect.stringMatching(/disk error .*could not be synced to disk: EIO/) as string,
  });
  expect(returns()).toBe(0);
  expect(new Journal(db).get(clientOrderId)).toMatchObject({
    state: 'refused',
    errorCode: 'NOT_SENT',
  });
  // The same action again: recorded as not sent, so still nothing leaves.
  const again = await orders.refund({
    profileId,
    orderid: orderId,
    clientOrderId,
    amount: '4.00',
    reason: 'Damaged',
  });
  expect(again).toMatchObject({ replayed: true, entry: { state: 'refused' } });
  expect(returns()).toBe(0);
});
