// Backups of the desk's journal as the app makes and restores them, against a sandbox that
// forgives nothing (a repeat is a new refund; a recorded refund shows in `status` only later):
// a backup taken while refunds are being written is whole and holds every entry committed
// before it began; a journal restored from a backup taken while a refund was in flight asks the
// gateway about it at start and never sends it again; a journal Paydesk knows it had, found
// empty or missing, stops the app with a sentence and the latest backup, and changes nothing
// until the person chooses.

import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices, type StartOptions } from '../../main/services/app';
import { backupDatabase, listBackups } from '../../main/store/sqlite/backup';
import { approvedOrder, SHOP, shopClient } from '../support/shop';
import { CONTROL_KEY, reversalsOf, startUnforgivingSandbox } from '../reliability/support';
import { until } from '../support/wait';

const fast = { delayAfter: () => 25, giveUpAfterMs: 20_000 };
let dataDir: string;
let secrets: MemorySecretStore;
let sandbox: Sandbox;
const running: PaydeskServices[] = [];

async function start(extra: Partial<StartOptions> = {}): Promise<PaydeskServices> {
  const services = await PaydeskServices.start({
    dataDir,
    secrets,
    operator: 'ann',
    wait: fast,
    sandboxDelayMs: 50,
    backups: 'off',
    ...extra,
  });
  running.push(services);
  return services;
}

async function stop(services: PaydeskServices): Promise<void> {
  running.splice(running.indexOf(services), 1);
  await services.close();
}

/** A profile at the unforgiving sandbox, made through the app's own service. */
async function shopProfile(app: PaydeskServices): Promise<string> {
  const profile = await app.profiles.create({
    name: 'Shop',
    environment: 'sandbox',
    baseUrl: sandbox.baseUrl,
    endpointId: SHOP.endpointId,
    login: SHOP.login,
    controlKey: CONTROL_KEY,
  });
  return profile.id;
}

function journalIds(file: string): Map<string, string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT client_orderid AS id, state FROM journal').all() as {
      id: string;
      state: string;
    }[];
    return new Map(rows.map((r) => [r.id, r.state]));
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-backup-'));
  secrets = new MemorySecretStore();
  sandbox = await startUnforgivingSandbox(300);
});

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a backup while refunds are being written', () => {
  it('opens, passes integrity_check and holds every entry committed before it began', async () => {
    const app = await start();
    const profileId = await shopProfile(app);
    // One order for each refund: a second refund of one order waits for the first's final word.
    const client = shopClient(sandbox, CONTROL_KEY);
    const orders = await Promise.all(
      Array.from({ length: 30 }, () => approvedOrder(client, 'SALE', '5.00')),
    );
    // Pages enough that the backup takes many steps, the refunds' writes going on between them.
    app.db.exec('CREATE TABLE ballast (b BLOB)');
    const fill = app.db.prepare('INSERT INTO ballast VALUES (randomblob(4000))');
    app.db.transaction(() => {
      for (let i = 0; i < 600; i++) fill.run();
    })();

    const refund = () => {
      const { clientOrderId } = app.orders.openAction();
      return app.orders.refund({
        profileId,
        orderid: orders.pop() ?? '',
        clientOrderId,
        amount: '1.00',
        reason: 'Goodwill',
      });
    };
    await Promise.all([refund(), refund(), refund()]);
    const file = join(dataDir, 'paydesk.sqlite');
    let writing = true;
    const refunds = (async () => {
      let sent = 0;
      while (writing && orders.length > 0) {
        await refund();
        sent++;
      }
      return sent;
    })();
    await until(() => journalIds(file).size >= 5, 10_000, 'refunds under way');

    // A backup that happened to finish between two refunds' commits proves nothing: take it
    // again (a bounded number of times) until refunds were committed while it was being made.
    const folder = join(dataDir, 'backups');
    let before = journalIds(file);
    let made = await backupDatabase(app.db, folder, { pagesPerStep: 1 });
    let after = journalIds(file);
    for (
      let attempt = 1;
      after.size === before.size && attempt < 20 && orders.length > 0;
      attempt++
    ) {
      rmSync(folder, { recursive: true, force: true });
      before = journalIds(file);
      made = await backupDatabase(app.db, folder, { pagesPerStep: 1 });
      after = journalIds(file);
    }
    writing = false;
    await refunds;

    // Refunds were committed while the backup was being made.
    expect(after.size).toBeGreaterThan(before.size);
    const backup = new Database(made.path, { readonly: true, fileMustExist: true });
    try {
      expect(backup.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(backup.pragma('journal_mode', { simple: true })).toBe('delete');
      const held = new Set(
        (backup.prepare('SELECT client_orderid AS id FROM journal').all() as { id: string }[]).map(
          (r) => r.id,
        ),
      );
      for (const id of before.keys()) expect(held.has(id), id).toBe(true);
    } finally {
      backup.close();
    }
    // A whole file under the backup's name, nothing half-made beside it.
    expect(readdirSync(folder)).toEqual([made.name]);
  });
});

describe('automatic backups', () => {
  it('back up after start and again while the app runs, keeping what the retention says', async () => {
    const app = await start({ backups: undefined, firstBackupAfterMs: 50, backupEveryMs: 400 });
    const folder = join(dataDir, 'backups');
    await until(() => listBackups(folder).length === 1, 10_000, 'the start’s backup');
    const first = listBackups(folder)[0]!.name;
    await until(() => listBackups(folder).some((b) => b.name !== first), 10_000, 'the next backup');
    // Both on one day: the newer is kept, the older goes by the retention.
    await until(() => listBackups(folder).length === 1, 10_000, 'the retention');
    expect(app.backups.status()).toMatchObject({ folder, everyHours: 4 });
    expect(app.backups.status().lastError).toBeUndefined();
  });
});

describe('restore, then start', () => {
  it('asks the gateway about an entry that was in flight at backup time and never sends it again', async () => {
    const app = await start();
    const profileId = await shopProfile(app);
    const orderId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '50.00');
    // The refund's answer is held back 1.5 s: the backup is taken while it is in flight.
    sandbox.misbehave({
      noDedupe: true,
      visibilityDelayMs: 300,
      operations: ['RETURN'],
      latencyMs: 1500,
    });
    const { clientOrderId } = app.orders.openAction();
    const refunding = app.orders.refund({
      profileId,
      orderid: orderId,
      clientOrderId,
      amount: '7.00',
      reason: 'Goodwill',
    });
    await until(() => sandbox.received('RETURN') === 1, 10_000, 'the refund at the gateway');
    const made = await app.backups.backupNow();
    await refunding.catch(() => undefined);
    await app.orders.settled(clientOrderId);
    sandbox.misbehave({ noDedupe: true, visibilityDelayMs: 300, operations: ['RETURN'] });

    const inBackup = journalIds(made.path).get(clientOrderId);
    expect(['sending', 'acknowledged', 'unknown']).toContain(inBackup);

    // Settings -> Backups -> Restore: chosen, then the app restarts.
    await app.backups.chooseRestore(made.name);
    await stop(app);
    const restored = await start();
    expect(restored.report.store).toMatchObject({
      writable: true,
      restored: { kind: 'restore', backup: made.path },
    });
    const keptAside = restored.report.store.restored?.keptAside;
    expect(keptAside && existsSync(keptAside)).toBe(true);

    await restored.reconciled;
    const entry = await restored.orders.settled(clientOrderId);
    expect(entry).toMatchObject({ state: 'final', status: 'approved' });
    // One refund at the gateway, ever: the restart asked `status`, it did not send again.
    expect(sandbox.received('RETURN')).toBe(1);
    expect(reversalsOf(sandbox, orderId)).toHaveLength(1);
  });
});

describe('a journal Paydesk knows it had', () => {
  async function historyWithBackup() {
    const app = await start();
    await shopProfile(app);
    const made = await app.backups.backupNow();
    await stop(app);
    return made;
  }

  for (const how of ['EMPTY', 'MISSING'] as const) {
    it(`found ${how === 'EMPTY' ? 'empty (zero bytes)' : 'missing'}: stops with a sentence, offers the latest backup, changes nothing`, async () => {
      const made = await historyWithBackup();
      const file = join(dataDir, 'paydesk.sqlite');
      if (how === 'EMPTY') truncateSync(file, 0);
      else rmSync(file);
      for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
      const filesBefore = readdirSync(dataDir).sort();

      const app = await start();
      expect(app.report.store).toMatchObject({
        writable: false,
        code: how,
        latestBackup: { name: made.name, takenAt: made.takenAt },
      });
      const message = (app.report.store as { message: string }).message;
      expect(message).toContain(how === 'EMPTY' ? 'journal is empty' : 'journal is missing');
      expect(message).toContain('restore it, or begin a new, empty journal');
      expect(message).toContain('Nothing has been changed or sent until you choose');
      expect(app.report.sandbox.running).toBe(false);
      // Nothing can be written, and nothing was: no new database was made in its place.
      await expect(
        app.profiles.create({
          name: 'X',
          environment: 'sandbox',
          baseUrl: sandbox.baseUrl,
          endpointId: '1',
          login: 'x',
          controlKey: 'k',
        }),
      ).rejects.toThrow(/read-only/);
      await expect(app.backups.backupNow()).rejects.toThrow(/paused/);
      await stop(app);
      expect(readdirSync(dataDir).sort()).toEqual(filesBefore);
      if (how === 'EMPTY') expect(statSync(file).size).toBe(0);
      else expect(existsSync(file)).toBe(false);
      expect(listBackups(join(dataDir, 'backups'))).toHaveLength(1);

      // The person restores the latest backup: the profiles are back.
      const again = await start();
      await again.backups.chooseRestore(made.name);
      await stop(again);
      const restored = await start();
      expect(restored.report.store.writable).toBe(true);
      expect((await restored.profiles.list()).map((p) => p.name).sort()).toEqual([
        'Sandbox',
        'Shop',
      ]);
    });
  }

  it('begins a new, empty journal only when the person chooses it, keeping the empty file aside', async () => {
    await historyWithBackup();
    const file = join(dataDir, 'paydesk.sqlite');
    truncateSync(file, 0);
    const app = await start();
    expect(app.report.store).toMatchObject({ writable: false, code: 'EMPTY' });
    await app.backups.chooseNewJournal(app.absentJournal);
    await stop(app);

    const fresh = await start();
    expect(fresh.report.store).toMatchObject({ writable: true, restored: { kind: 'new-journal' } });
    const aside = fresh.report.store.restored?.keptAside ?? '';
    expect(statSync(aside).size).toBe(0);
    expect(fresh.report.firstRun).toBe(true);
  });

  it('known from the keychain alone (no marker, no backup): missing stops, saying no backup was found', async () => {
    const app = await start();
    await stop(app);
    const file = join(dataDir, 'paydesk.sqlite');
    for (const name of readdirSync(dataDir)) {
      if (name.startsWith('paydesk.sqlite') || name === 'paydesk-journal.json')
        rmSync(join(dataDir, name));
    }
    const again = await start();
    expect(again.report.store).toMatchObject({ writable: false, code: 'MISSING' });
    expect((again.report.store as { message: string }).message).toContain('No backup was found');
    await stop(again);
    expect(existsSync(file)).toBe(false);
  });

  it('a first start (no marker, no backup) is not stopped', async () => {
    const app = await start();
    expect(app.report.store.writable).toBe(true);
    expect(app.report.firstRun).toBe(true);
  });
});
