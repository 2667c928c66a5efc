// Paydesk started on a database it cannot trust or cannot write: a damaged header, damage
// inside a table, a read-only file, a folder it cannot write, and (for comparison) no keychain.
// Each start gives a clear state through the real bridge: the reason and what to do, lookups
// still answered, no refund sent (it could not be journaled), a typed error for every write,
// and the file left exactly as it was.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { openDatabase } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder, shopClient, startShopSandbox } from '../support/shop';
import { probeApp, type ProbeInput, type ProbeOutcome } from './support/probe-app';
import { CONTROL_KEY } from '../support/samples';

const NOBODY = 65_534;
let sandbox: Sandbox;
let orderid: string;
const dirs: string[] = [];
let tried = 0;
let held = 0;

beforeAll(async () => {
  sandbox = await startShopSandbox(CONTROL_KEY);
  orderid = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
});

afterAll(async () => {
  await sandbox.close();
  for (const dir of dirs) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`reliability: database faults tried ${tried} held ${held}`);
});

/** A data folder with a healthy database: the shop's profile and 300 final journal entries. */
function seededFolder(options: { inFlight?: boolean } = {}): {
  dataDir: string;
  file: string;
  profileId: string;
} {
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-fault-'));
  dirs.push(dataDir);
  const file = join(dataDir, 'paydesk.sqlite');
  const db = openDatabase(file);
  const profileId = new Profiles(db).create({
    name: 'Shop',
    environment: 'test',
    baseUrl: sandbox.baseUrl,
    endpointId: '1111',
    login: 'shop',
  }).id;
  const journal = new Journal(db);
  db.transaction(() => {
    for (let i = 0; i < 300; i++) {
      const clientOrderId = `pd-seed-${String(i).padStart(6, '0')}`;
      journal.begin({
        clientOrderId,
        profileId,
        operator: 'ann',
        operation: 'RETURN',
        targetOrderId: `9${i}`,
        amountMinor: 100n,
        currency: 'EUR',
        reason: 'Customer request',
        fields: { client_orderid: clientOrderId, orderid: `9${i}`, amount: '1.00' },
      });
      if (!(options.inFlight && i === 299)) {
        journal.finish(clientOrderId, { status: 'approved', orderId: `8${i}` });
      }
    }
  })();
  db.close(); // checkpoints the WAL into the file and removes it
  return { dataDir, file, profileId };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function overwrite(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** Runs the probe as another user when we are root (root ignores file permissions). */
function probeAsOrdinaryUser(input: ProbeInput): Promise<ProbeOutcome> {
  const asRoot = process.getuid?.() === 0;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures', 'probe-app.ts'),
      JSON.stringify(input),
    ],
    {
      env: { ...process.env, HOME: tmpdir() },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        reject(new Error(`the probe exited with ${code}: ${err.slice(-2000)}`));
      } else {
        resolve(JSON.parse(last) as ProbeOutcome);
      }
    });
  });
}

function gatewayTransactions(): number {
  return sandbox.orders().length;
}

/** What every read-only start must show, whatever the cause. */
function expectReadOnly(result: ProbeOutcome, file: string, code: string): void {
  expect(result.status.store).toMatchObject({ writable: false, code, file });
  expect(result.status.store.message).toContain(file);
  expect(result.refund).toMatchObject({ ok: false, code: 'STORE', storeCode: code });
  expect(result.refund.message).toMatch(/read-only and cannot send a refund: nothing was sent/);
  expect(result.createProfile).toMatchObject({ ok: false, code: 'STORE', storeCode: code });
}

describe('a start on a database that cannot be trusted or written', () => {
  it('a damaged header: read-only on an empty database, with how to restore the file', async () => {
    tried++;
    const { dataDir, file, profileId } = seededFolder();
    overwrite(file, 0, Buffer.from('NOT A DATABASE!!'));
    const before = sha256(file);
    const sent = gatewayTransactions();

    const result = await probeApp({ dataDir, profileId, controlKey: CONTROL_KEY, orderid });

    expectReadOnly(result, file, 'DAMAGED');
    expect(result.status.store.message).toMatch(/is damaged \(file is not a database\)/);
    expect(result.status.store.message).toMatch(/quit Paydesk, move .* backup/);
    // Nothing could be read from it: no profiles, so a lookup says which profile is missing.
    expect(result.profiles).toBe(0);
    expect(result.lookup).toMatchObject({ ok: false, code: 'PROFILE' });
    expect(result.journal).toMatchObject({ ok: true, states: [] });
    expect(gatewayTransactions()).toBe(sent);
    expect(sha256(file)).toBe(before);
    held++;
  });

  it('damage inside the journal table: read-only on a copy, lookups still answered', async () => {
    tried++;
    const { dataDir, file, profileId } = seededFolder();
    const db = new Database(file, { readonly: true });
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'journal'")
      .get() as { rootpage: number };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    // The journal's root page gets an invalid page type and garbage cell pointers.
    overwrite(file, (rootpage - 1) * pageSize, Buffer.alloc(64, 0xee));
    const before = sha256(file);
    const sent = gatewayTransactions();

    const result = await probeApp({ dataDir, profileId, controlKey: CONTROL_KEY, orderid });

    expectReadOnly(result, file, 'DAMAGED');
    expect(result.status.store.message).toMatch(
      /is damaged \((database disk image is malformed|the integrity check found)/,
    );
    expect(result.profiles).toBe(1);
    expect(result.lookup).toMatchObject({ ok: true, refundable: '10.00' });
    // Reading the damaged table is a typed database error, not "an unexpected problem".
    expect(result.journal).toMatchObject({ ok: false, code: 'STORE', storeCode: 'DAMAGED' });
    expect(gatewayTransactions()).toBe(sent);
    expect(sha256(file)).toBe(before);
    held++;
  });

  it('a read-only file: read-only on a copy, lookups and the journal still answered', async () => {
    tried++;
    const { dataDir, file, profileId } = seededFolder();
    chmodSync(dataDir, 0o777);
    chmodSync(file, 0o444);
    const before = sha256(file);
    const sent = gatewayTransactions();

    const result = await probeAsOrdinaryUser({
      dataDir,
      profileId,
      controlKey: CONTROL_KEY,
      orderid,
    });

    expectReadOnly(result, file, 'READ_ONLY');
    expect(result.status.store.message).toMatch(/write permission to the file/);
    expect(result.profiles).toBe(1);
    expect(result.lookup).toMatchObject({ ok: true, refundable: '10.00' });
    expect(result.journal.states).toHaveLength(300);
    expect(gatewayTransactions()).toBe(sent);
    expect(sha256(file)).toBe(before);
    held++;
  });

  it('a folder Paydesk cannot write: read-only on a copy, with the folder named', async () => {
    tried++;
    const { dataDir, file, profileId } = seededFolder();
    chmodSync(file, 0o666);
    chmodSync(dataDir, 0o555);
    const before = sha256(file);
    const sent = gatewayTransactions();

    const result = await probeAsOrdinaryUser({
      dataDir,
      profileId,
      controlKey: CONTROL_KEY,
      orderid,
    });

    expectReadOnly(result, file, 'UNWRITABLE');
    expect(result.status.store.message).toContain(`the folder ${dataDir}`);
    expect(result.profiles).toBe(1);
    expect(result.lookup).toMatchObject({ ok: true, refundable: '10.00' });
    expect(result.journal.states).toHaveLength(300);
    expect(gatewayTransactions()).toBe(sent);
    expect(sha256(file)).toBe(before);
    held++;
  });

  it('no keychain: the database stays writable, nothing is sent, the entry in flight is kept', async () => {
    tried++;
    const { dataDir, profileId } = seededFolder({ inFlight: true });
    const sent = gatewayTransactions();

    const result = await probeApp({
      dataDir,
      profileId,
      controlKey: CONTROL_KEY,
      orderid,
      keychain: 'locked',
    });

    expect(result.status.keychain).toMatchObject({ usable: false });
    expect(result.status.keychain.message).toMatch(/unlock/i);
    expect(result.status.store).toMatchObject({ writable: true });
    expect(result.lookup).toMatchObject({ ok: false, code: 'KEYCHAIN' });
    expect(result.refund).toMatchObject({ ok: false, code: 'KEYCHAIN' });
    // Not reconciled without the keychain, and not lost: still in flight for the next start.
    expect(result.journal.states?.filter((s) => s === 'sending')).toHaveLength(1);
    expect(result.journal.states).toHaveLength(300);
    expect(gatewayTransactions()).toBe(sent);
    held++;
  });
});
