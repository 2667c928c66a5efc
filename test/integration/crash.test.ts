// A process is killed between "journal written" and "answer received"; the next start
// reconciles the entry by status, and the gateway sees the refund exactly once.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';
import { openDatabase } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
import { Profiles } from '../../main/store/sqlite/profiles';
import { CONTROL_KEY } from '../support/samples';
import { orderDesk } from '../support/order-desk';

let dir: string;
let sandbox: Sandbox;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-crash-'));
  sandbox = await startShopSandbox(CONTROL_KEY);
});

afterEach(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function journalRow(file: string, clientOrderId: string): { state: string } | undefined {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT state FROM journal WHERE client_orderid = ?').get(clientOrderId) as
      { state: string } | undefined;
  } finally {
    db.close();
  }
}

it('reconciles a refund whose process died before the answer, without sending it again', async () => {
  const file = join(dir, 'paydesk.sqlite');
  const db = openDatabase(file);
  const profileId = new Profiles(db).create({
    name: 'Sandbox',
    environment: 'sandbox',
    baseUrl: sandbox.baseUrl,
    endpointId: '1111',
    login: 'shop',
  }).id;
  db.close();

  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');

  // The gateway holds every refund for a while before it answers: time for the kill.
  sandbox.misbehave({ latencyMs: 4_000, operations: ['RETURN'] });
  const clientOrderId = 'pd-crash-0001';
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '..', 'support', 'fixtures', 'refund-then-die.ts'),
      file,
      profileId,
      saleId,
      clientOrderId,
      '3.00',
    ],
    {
      env: { ...process.env, PAYDESK_TEST_CONTROL_KEY: CONTROL_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));

  let row: { state: string } | undefined;
  for (let i = 0; i < 300 && !row; i++) {
    await new Promise((r) => setTimeout(r, 50));
    row = journalRow(file, clientOrderId);
  }
  expect(row, output).toEqual({ state: 'sending' }); // written before the request left
  // Killed once the gateway has the request (it holds its answer 4 s).
  for (let i = 0; i < 300 && sandbox.received('RETURN') === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(sandbox.received('RETURN'), output).toBe(1);
  child.kill('SIGKILL');
  await exited;
  expect(output).not.toContain('answered');

  // The gateway still receives and records the refund the dead process sent.
  sandbox.misbehave({});
  for (
    let i = 0;
    i < 200 && sandbox.orders('1111').filter((o) => o.kind === 'reversal').length === 0;
    i++
  )
    await new Promise((r) => setTimeout(r, 50));

  // The next start.
  const again = openDatabase(file);
  const journal = new Journal(again);
  const { orders: service } = await orderDesk(again, new SqliteJournalPort(again, journal), {
    profileId,
    wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
  });
  const reconciled = await service.reconcile();
  expect(reconciled.map((e) => e.clientOrderId)).toEqual([clientOrderId]);
  await service.settled(clientOrderId);
  expect(journal.get(clientOrderId)).toMatchObject({
    state: 'final',
    status: 'approved',
    amountMinor: 300n,
  });
  expect(sandbox.orders('1111').filter((o) => o.kind === 'reversal')).toHaveLength(1);
  await service.close();
  again.close();
}, 60_000);
