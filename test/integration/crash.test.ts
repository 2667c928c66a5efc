// A process is killed between "journal written" and "answer received", or between the refund's
// answer and the commit that records it with the final status asked right after it; the next
// start reconciles the entry by status, and the gateway sees the refund exactly once.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { approvedOrder, shopClient, shopProfile, startShopSandbox } from '../support/shop';
import { openDatabase } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../main/store/sqlite/journal-port';
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

/** The desk's database with the sandbox's profile; returns the file and the profile's id. */
function deskFile(): { file: string; profileId: string } {
  const file = join(dir, 'paydesk.sqlite');
  const db = openDatabase(file);
  const profileId = shopProfile(db, sandbox);
  db.close();
  return { file, profileId };
}

/** Runs the refund in a process of its own (refund-then-die.ts), to be killed by the test. */
function refundInChild(
  args: { file: string; profileId: string; saleId: string; clientOrderId: string },
  env: Record<string, string> = {},
) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '..', 'support', 'fixtures', 'refund-then-die.ts'),
      args.file,
      args.profileId,
      args.saleId,
      args.clientOrderId,
      '3.00',
    ],
    {
      env: { ...process.env, PAYDESK_TEST_CONTROL_KEY: CONTROL_KEY, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const out = { text: '' };
  child.stdout.on('data', (c: Buffer) => (out.text += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.text += c.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, out, exited };
}

it('reconciles a refund whose process died before the answer, without sending it again', async () => {
  const { file, profileId } = deskFile();
  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');

  // The gateway holds every refund for a while before it answers: time for the kill.
  sandbox.misbehave({ latencyMs: 4_000, operations: ['RETURN'] });
  const clientOrderId = 'pd-crash-0001';
  const { child, out, exited } = refundInChild({ file, profileId, saleId, clientOrderId });

  let row: { state: string } | undefined;
  for (let i = 0; i < 300 && !row; i++) {
    await new Promise((r) => setTimeout(r, 50));
    row = journalRow(file, clientOrderId);
  }
  expect(row, out.text).toEqual({ state: 'sending' }); // written before the request left
  // Killed once the gateway has the request (it holds its answer 4 s).
  for (let i = 0; i < 300 && sandbox.received('RETURN') === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(sandbox.received('RETURN'), out.text).toBe(1);
  child.kill('SIGKILL');
  await exited;
  expect(out.text).not.toContain('answered');

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

it('reconciles a refund whose process died after its answer, before the answer was written', async () => {
  // Against a gateway that forgives nothing (a repeat would be a second refund) and shows the
  // refund final at once: the desk asks its status right after the answer, and writes the
  // acknowledgement with the final status in one commit. It dies while that status is asked.
  await sandbox.close();
  sandbox = await startShopSandbox(CONTROL_KEY, { forgiveNothing: true, delayMs: 0 });
  const { file, profileId } = deskFile();
  const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
  const statusesBefore = sandbox.received('STATUS');

  // Every status is held 4 s: the one before the refund, and the one right after its answer.
  sandbox.misbehave({ noDedupe: true, latencyMs: 4_000, operations: ['STATUS'] });
  const clientOrderId = 'pd-crash-0002';
  const { child, out, exited } = refundInChild(
    { file, profileId, saleId, clientOrderId },
    // The acknowledgement waits for that status longer than the test takes to kill it.
    { PAYDESK_TEST_FIRST_LOOK_MS: '60000' },
  );
  // Killed once the refund was answered and its status asked (the second status of this run).
  for (let i = 0; i < 300 && sandbox.received('STATUS') < statusesBefore + 2; i++)
    await new Promise((r) => setTimeout(r, 20));
  expect(sandbox.received('RETURN'), out.text).toBe(1);
  expect(sandbox.received('STATUS'), out.text).toBe(statusesBefore + 2);
  child.kill('SIGKILL');
  await exited;
  expect(out.text).not.toContain('answered');
  // The refund's answer came and is not in the journal: the entry is as written ahead, with no
  // orderid, so the next start can ask only by its client_orderid.
  const left = journalRow(file, clientOrderId);
  expect(left, out.text).toEqual({ state: 'sending' });
  sandbox.misbehave({ noDedupe: true });

  const again = openDatabase(file);
  const journal = new Journal(again);
  expect(journal.get(clientOrderId)?.orderId).toBeNull();
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
  // Settled as any entry the next start finds sending: by what the gateway's status shows.
  expect(journal.history(clientOrderId).map((step) => step.state)).toEqual([
    'sending',
    'acknowledged',
    'final',
  ]);
  // Asked by its client_orderid, never sent again.
  const asked = sandbox.requests().filter((r) => r.clientOrderId === clientOrderId);
  expect(asked.map((r) => r.operation)).toEqual(['RETURN', 'STATUS', 'STATUS']);
  expect(asked[2]?.orderid).toBeUndefined();
  expect(sandbox.received('RETURN')).toBe(1);
  expect(sandbox.orders('1111').filter((o) => o.kind === 'reversal')).toHaveLength(1);
  await service.close();
  again.close();
}, 60_000);
