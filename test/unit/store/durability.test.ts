// Which journal commits wait for the disk (main/store/sqlite/durability.ts): the write-ahead entry and a
// settlement by hand do (synchronous = FULL), a record of the gateway's answer does not
// (NORMAL), and the connection is back to FULL after every write, whatever happened in it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { withoutFsync } from '../../../main/store/sqlite/durability';
import { Journal } from '../../../main/store/sqlite/journal';
import { Profiles } from '../../../main/store/sqlite/profiles';
import { RecentOrders } from '../../../main/store/sqlite/recent-orders';

const FULL = 2;
const NORMAL = 1;

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-durability-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const level = () => db.pragma('synchronous', { simple: true });

it('the write-ahead entry and a settlement by hand wait for the disk; answers do not', () => {
  const profileId = new Profiles(db).create({
    name: 'Sandbox',
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:18080/paynet',
    endpointId: '1111',
    login: 'demo',
  }).id;
  // The journal asks its clock inside each write: what the connection's level is then.
  let seen: unknown[] = [];
  const journal = new Journal(db, () => {
    seen.push(level());
    return new Date();
  });
  const entry = (clientOrderId: string) => ({
    clientOrderId,
    profileId,
    operator: 'ann',
    operation: 'RETURN',
    targetOrderId: '9001',
    fields: { client_orderid: clientOrderId, orderid: '9001', amount: '1.00', currency: 'EUR' },
  });

  journal.begin(entry('pd-durable-1'));
  expect(seen).toEqual([FULL]);

  seen = [];
  journal.acknowledge('pd-durable-1', '9002');
  journal.finish('pd-durable-1', { status: 'approved', orderId: '9002' });
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(seen)).toEqual(new Set([NORMAL]));
  expect(level()).toBe(FULL);

  journal.begin(entry('pd-durable-2'));
  seen = [];
  journal.settleByHand('pd-durable-2', {
    outcome: 'approved',
    reason: 'Operator says so',
    by: 'ann',
  });
  expect(new Set(seen)).toEqual(new Set([FULL]));
  expect(journal.get('pd-durable-2')).toMatchObject({ state: 'final', settledBy: 'ann' });

  new RecentOrders(db).seen({
    profileId,
    orderId: '9001',
    clientOrderId: null,
    email: null,
    lastFour: null,
    transactionType: null,
    amount: null,
    currency: null,
    stateLabel: null,
  });
  expect(level()).toBe(FULL);
});

it('is back to FULL after a write that threw, and leaves an outer transaction alone', () => {
  expect(() =>
    withoutFsync(db, () => {
      expect(level()).toBe(NORMAL);
      throw new Error('refused');
    }),
  ).toThrow('refused');
  expect(level()).toBe(FULL);

  // Inside a transaction the level cannot change (SQLite refuses): the outer commit decides.
  db.transaction(() => withoutFsync(db, () => expect(level()).toBe(FULL)))();
  expect(level()).toBe(FULL);
});
