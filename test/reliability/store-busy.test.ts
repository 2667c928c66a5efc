// Two processes on one database file take turns: a write waits for the other's lock (the busy
// timeout) instead of failing "database is locked", and a lock that outlasts the timeout is a
// typed, retryable StoreError, never a raw SqliteError or "an unexpected problem".

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { createBridge, isAppTopFrame, type Handlers } from '../../main/bridge';
import type { Sandbox } from '../../main/sandbox';
import { StoreError, toStoreError } from '../../main/store/errors';
import { openDatabase } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { Profiles } from '../../main/store/sqlite/profiles';
import { channelOf } from '../../common/contract';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';
import { CONTROL_KEY } from '../support/samples';

const PER_PROCESS = 10;
let sandbox: Sandbox;
let dir: string;
let tried = 0;
let held = 0;

beforeAll(async () => {
  sandbox = await startShopSandbox(CONTROL_KEY);
  dir = mkdtempSync(join(tmpdir(), 'paydesk-busy-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`reliability: two processes on one database tried ${tried} held ${held}`);
});

function runRefunds(file: string, name: string, orderids: string[]): Promise<unknown[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures', 'refund-many.ts'),
      file,
      name,
      sandbox.baseUrl,
      orderids.join(','),
    ],
    {
      env: { ...process.env, PAYDESK_TEST_CONTROL_KEY: CONTROL_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${name} exited with ${code}: ${err.slice(-2000)}`));
      else
        resolve(
          out
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as unknown),
        );
    });
  });
}

it('two processes open a new database and refund at once: every refund is journaled, none fails on a lock', async () => {
  const client = shopClient(sandbox, CONTROL_KEY);
  const orders = await Promise.all(
    Array.from({ length: 2 * PER_PROCESS }, () => approvedOrder(client, 'SALE', '5.00')),
  );
  const file = join(dir, 'shared.sqlite'); // does not exist yet: both processes migrate it
  const [a, b] = await Promise.all([
    runRefunds(file, 'Process A', orders.slice(0, PER_PROCESS)),
    runRefunds(file, 'Process B', orders.slice(PER_PROCESS)),
  ]);
  const outcomes = [...(a ?? []), ...(b ?? [])];
  tried += 2 * PER_PROCESS;
  held += outcomes.filter((o) => (o as { ok?: boolean }).ok === true).length;
  expect(outcomes.filter((o) => (o as { ok?: boolean }).ok !== true)).toEqual([]);
  expect(outcomes).toHaveLength(2 * PER_PROCESS);

  const db = openDatabase(file);
  try {
    const journal = new Journal(db);
    expect(journal.search({ operation: 'RETURN' }, 0, 100).total).toBe(2 * PER_PROCESS);
  } finally {
    db.close();
  }
  // Exactly one refund at the gateway per order.
  const refunds = sandbox.orders().filter((o) => o.kind === 'reversal');
  for (const orderid of orders) {
    expect(refunds.filter((r) => r.parentOrderId === orderid)).toHaveLength(1);
  }
});

it('a lock held past the busy timeout is a typed, retryable store error, and the retry succeeds', async () => {
  tried++;
  const file = join(dir, 'locked.sqlite');
  const holder = openDatabase(file);
  const profileId = new Profiles(holder).create({
    name: 'Shop',
    environment: 'test',
    baseUrl: sandbox.baseUrl,
    endpointId: '1111',
    login: 'shop',
  }).id;
  const waiter = openDatabase(file, { busyTimeoutMs: 150 });
  const journal = new Journal(waiter);
  const entry = (n: number) => ({
    clientOrderId: `pd-busy-${n}`,
    profileId,
    operator: 'ann',
    operation: 'RETURN',
    targetOrderId: '1',
    amountMinor: 100n,
    currency: 'EUR',
    fields: { client_orderid: `pd-busy-${n}`, orderid: '1' },
  });
  // The bridge, as the screens reach it, in front of a write on the waiting connection.
  const bridge = createBridge(
    { profiles: { list: () => (journal.begin(entry(2)), []) } } as unknown as Handlers,
    { isTrustedSender: isAppTopFrame('app://paydesk'), databaseFile: file },
  );
  try {
    holder.exec('BEGIN IMMEDIATE'); // another process in the middle of a long write
    let thrown: unknown;
    try {
      journal.begin(entry(1));
    } catch (error) {
      thrown = error;
    }
    // Thrown by the store itself as a StoreError: no caller sees a raw SqliteError.
    expect(thrown).toBeInstanceOf(StoreError);
    const typed = toStoreError(thrown, file);
    expect(typed).toMatchObject({ code: 'BUSY', retryable: true, sqliteCode: 'SQLITE_BUSY' });
    expect(typed?.message).toMatch(/stayed locked .* Try again in a moment/);

    const answer = await bridge.handle(
      channelOf('profiles', 'list'),
      { url: 'app://paydesk/index.html', isTopFrame: true },
      {},
    );
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'STORE', details: { storeCode: 'BUSY', retryable: true } },
    });
    expect(JSON.stringify(answer)).not.toMatch(/SqliteError|unexpected problem/);

    holder.exec('ROLLBACK');
    expect(journal.begin(entry(1))).toMatchObject({ state: 'sending' });
    held++;
  } finally {
    waiter.close();
    holder.close();
  }
});
