// Paydesk's services as the app starts them: first run with the embedded sandbox, a second
// start on the same data folder, a locked keychain, keys, and a scan of everything written
// to disk for secrets and card data.

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { KeyMaterial } from '../../main/keys';
import { generateNativeKeyMaterial } from '../../main/keys/native';
import { fileLogger } from '../../main/log';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices, type StartOptions } from '../../main/services/app';
import type { PublicKeyView } from '../../main/services/keys';
import type { ProfileView } from '../../main/services/profiles';
import { contentText } from '../../main/files';
import { CARD_PAYOUT } from '../support/samples';

const fast = { delayAfter: () => 25, giveUpAfterMs: 20_000 };
let dataDir: string;
let secrets: MemorySecretStore;
let services: PaydeskServices | undefined;
let releaseHeld: (() => void) | undefined;

const start = async (extra: Partial<StartOptions> = {}) => {
  services = await PaydeskServices.start({
    dataDir,
    secrets,
    operator: 'ann',
    wait: fast,
    sandboxDelayMs: 50,
    log: fileLogger(join(dataDir, 'paydesk.log')),
    ...extra,
  });
  return services;
};

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-app-'));
  secrets = new MemorySecretStore();
});

afterEach(async () => {
  releaseHeld?.();
  releaseHeld = undefined;
  await services?.close();
  services = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('first start', () => {
  it('creates the Sandbox profile with its keys in the keychain, and a user can look up and refund at once', async () => {
    const app = await start();
    expect(app.report).toMatchObject({
      keychain: { usable: true },
      firstRun: true,
      sandbox: { running: true },
    });
    // The journal is this desk's SQLite unless a team journal is passed in.
    expect(app.port.store).toBe('sqlite');
    const [profile] = await app.profiles.list();
    expect(profile).toMatchObject({
      name: 'Sandbox',
      environment: 'sandbox',
      embedded: true,
      hasControlKey: true,
      hasPrivateKey: true,
    });
    expect(profile!.keyFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const order = await app.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1001' });
    expect(order).toMatchObject({
      status: 'approved',
      transactionType: 'sale',
      actions: { refund: { allowed: true } },
    });
    const { clientOrderId } = app.orders.openAction();
    await app.orders.refund({
      profileId: profile!.id,
      orderid: order.orderId,
      clientOrderId,
      amount: '1.00',
      reason: 'Goodwill',
    });
    expect(await app.orders.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
      operator: 'ann',
    });
    const journal = await app.journal.search({}, 0, 10);
    expect(journal.rows[0]).toMatchObject({
      clientOrderId,
      amount: '1.00',
      operation: 'RETURN',
      state: 'final',
    });
  });

  it('a second start keeps the profile, its key, the sandbox orders and its address', async () => {
    const first = await start();
    const [before] = await first.profiles.list();
    const address = first.report.sandbox.running ? first.report.sandbox.baseUrl : '';
    expect(before!.baseUrl).toBe(address);
    await first.close();
    services = undefined;
    const second = await start();
    // The same address: a profile copied from the Sandbox (a teammate's, a shared one) still works.
    expect(second.report).toMatchObject({
      firstRun: false,
      sandbox: { running: true, baseUrl: address },
    });
    expect(second.report.sandbox).not.toHaveProperty('message');
    const [after] = await second.profiles.list();
    expect(after).toMatchObject({
      id: before!.id,
      keyFingerprint: before!.keyFingerprint,
      baseUrl: address,
    });
    await expect(
      second.orders.lookup(after!.id, { client_orderid: 'demo-auth-2001' }),
    ).resolves.toMatchObject({ transactionType: 'preauth' });
  });

  it('a port taken by another program: the sandbox moves, the profile follows, and a sentence says so', async () => {
    const first = await start();
    const [before] = await first.profiles.list();
    const port = Number(new URL(before!.baseUrl).port);
    await first.close();
    services = undefined;
    const squatter = createServer((_req, res) => res.end('another program'));
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const second = await start();
      const report = second.report.sandbox;
      expect(report.running).toBe(true);
      const moved = report.running ? report.baseUrl : '';
      expect(new URL(moved).port).not.toBe(String(port));
      expect(report.message).toBe(
        `The built-in sandbox could not keep its address: port ${port} on this computer is taken by another program, so it runs at ${moved} for now. The Sandbox profile follows it; a profile you copied from it still names port ${port}. Close the other program and restart Paydesk to get the old address back.`,
      );
      const [after] = await second.profiles.list();
      expect(after!.baseUrl).toBe(moved);
      await expect(
        second.orders.lookup(after!.id, { client_orderid: 'demo-auth-2001' }),
      ).resolves.toMatchObject({ transactionType: 'preauth' });
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

describe("the Sandbox profile's key, made after start returns", () => {
  /** The real key maker, whose key is held until the test releases it (or the test ends). */
  const heldKeyMaker = () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    releaseHeld = release; // close waits for the key: a failed test must not hang there
    let handOut!: (material: KeyMaterial) => void;
    /** The key, once made and released. */
    const made = new Promise<KeyMaterial>((resolve) => (handOut = resolve));
    let handedOut = false;
    const makeSandboxKey = async (bits: number) => {
      const material = await generateNativeKeyMaterial(bits);
      await released;
      handedOut = true;
      handOut(material);
      return material;
    };
    return { makeSandboxKey, release, made, handedOut: () => handedOut };
  };

  it('start answers before the key exists; what needs the key waits for it, then works with it', async () => {
    const key = heldKeyMaker();
    const app = await start({ makeSandboxKey: key.makeSandboxKey });
    // Ready while the key is held: the sandbox runs, the profile and its control key exist.
    expect(app.report).toMatchObject({ firstRun: true, sandbox: { running: true } });
    const profileId = app.report.sandbox.running ? app.report.sandbox.profileId : '';
    expect(await secrets.get(profileId, 'control-key')).toBeTruthy();
    expect(await secrets.get(profileId, 'rsa-private-key')).toBeUndefined();
    await expect(app.journal.search({}, 0, 10)).resolves.toMatchObject({ rows: [] });

    // Asked before the key exists: each must wait for it, or it would see no key.
    const settled: string[] = [];
    const note = <T>(name: string, call: Promise<T>) =>
      call.finally(() => settled.push(name)).catch((error: unknown) => error);
    const listed = note('list', app.profiles.list());
    const current = note('current', app.keys.current(profileId));
    const payoutId = app.orders.openAction().clientOrderId;
    const payout = note(
      'payout',
      app.payouts.check({ profileId, clientOrderId: payoutId, ...CARD_PAYOUT }),
    );
    // Other calls go on meanwhile.
    await app.journal.search({}, 0, 10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    expect(key.handedOut()).toBe(false);

    key.release();
    const made = await key.made;
    const [profile] = (await listed) as ProfileView[];
    expect(profile).toMatchObject({ hasPrivateKey: true, keyFingerprint: made.fingerprint });
    expect(await current).toMatchObject({ fingerprint: made.fingerprint });
    expect(await payout).toMatchObject({ entry: { operation: 'PAYOUT_V4_CHECK' } });
    expect(await app.orders.settled(payoutId)).toMatchObject({ status: 'checked' });
  });

  it("the sandbox's database and demo orders are made at its first use, not on the way to ready", async () => {
    const key = heldKeyMaker(); // its arrival is a first use (the sandbox learns it): held
    const app = await start({ makeSandboxKey: key.makeSandboxKey });
    expect(app.report).toMatchObject({ firstRun: true, sandbox: { running: true } });
    const profileId = app.report.sandbox.running ? app.report.sandbox.profileId : '';
    const sandboxFile = join(dataDir, 'sandbox.sqlite');
    expect(existsSync(sandboxFile)).toBe(false);
    // Once the key is there (a lookup waits for it), the first lookup finds a demo order.
    key.release();
    const order = await app.orders.lookup(profileId, { client_orderid: 'demo-sale-1001' });
    expect(order).toMatchObject({ clientOrderId: 'demo-sale-1001', status: 'approved' });
    expect(existsSync(sandboxFile)).toBe(true);
  });

  it('a key imported while the first is made replaces it, not the reverse', async () => {
    const key = heldKeyMaker();
    const app = await start({ makeSandboxKey: key.makeSandboxKey });
    const profileId = app.report.sandbox.running ? app.report.sandbox.profileId : '';
    // A key the person imports now replaces the one being made, not the reverse. (node-forge,
    // which reads it, loaded first: the import would otherwise be slower than the key.)
    await import('../../main/keys');
    const imported = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    }).privateKey;
    const importing = app.keys.import(profileId, imported).catch((error: unknown) => error);
    await app.journal.search({}, 0, 10);
    await new Promise((resolve) => setImmediate(resolve));
    key.release();
    const made = await key.made;
    const attached = (await importing) as PublicKeyView;
    expect(attached.fingerprint).not.toBe(made.fingerprint);
    expect(await app.keys.current(profileId)).toMatchObject({ fingerprint: attached.fingerprint });
    expect(attached.history.map((k) => [k.fingerprint, k.retiredAt === null])).toEqual([
      [attached.fingerprint, true],
      [made.fingerprint, false],
    ]);
    // The sandbox took the imported key too: a signed payout check with it works.
    const againId = app.orders.openAction().clientOrderId;
    await app.payouts.check({ profileId, clientOrderId: againId, ...CARD_PAYOUT });
    expect(await app.orders.settled(againId)).toMatchObject({ status: 'checked' });
  });

  it('a quit while the key is made keeps it: close waits, and the next start has it', async () => {
    const key = heldKeyMaker();
    const first = await start({ makeSandboxKey: key.makeSandboxKey });
    const closing = first.close();
    key.release();
    await closing;
    services = undefined;
    const made = await key.made;

    let asked = 0;
    const second = await start({
      makeSandboxKey: (bits) => {
        asked++;
        return generateNativeKeyMaterial(bits);
      },
    });
    const [profile] = await second.profiles.list();
    expect(profile).toMatchObject({ hasPrivateKey: true, keyFingerprint: made.fingerprint });
    expect(await secrets.get(profile!.id, 'rsa-private-key')).toBe(made.privateKeyPkcs8Pem);
    expect(asked).toBe(0);
  });

  it('a key that cannot be kept: the calls that need it say why, and the next start gives one', async () => {
    // The keychain refuses the new private key once, as if the app had died before keeping it.
    const set = secrets.set.bind(secrets);
    let refused = false;
    secrets.set = (profileId, kind, value) => {
      if (kind === 'rsa-private-key' && !refused) {
        refused = true;
        return Promise.reject(new Error('the keychain refused it'));
      }
      return set(profileId, kind, value);
    };
    const first = await start();
    expect(first.report.sandbox.running).toBe(true);
    const [without] = await first.profiles.list();
    expect(without).toMatchObject({ hasPrivateKey: false, keyFingerprint: null });
    await expect(
      first.orders.lookup(without!.id, { client_orderid: 'demo-sale-1001' }),
    ).rejects.toThrow(
      /RSA key could not be made at start \(the keychain refused it\).*start Paydesk again/,
    );
    await first.close();
    services = undefined;

    const second = await start();
    expect(second.report).toMatchObject({ firstRun: false, sandbox: { running: true } });
    const [profile] = await second.profiles.list();
    expect(profile).toMatchObject({ name: 'Sandbox', hasPrivateKey: true });
    await expect(
      second.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1001' }),
    ).resolves.toMatchObject({ status: 'approved' });
  });

  it('a quit between the keychain and the database: the next start records the kept key', async () => {
    const first = await start();
    const [before] = await first.profiles.list();
    await first.close();
    services = undefined;
    // The key is in the keychain; the database never learnt its fingerprint.
    const db = new Database(join(dataDir, 'paydesk.sqlite'));
    db.prepare('DELETE FROM profile_keys').run();
    db.prepare('UPDATE profiles SET key_fingerprint = NULL').run();
    db.close();

    const second = await start();
    const [after] = await second.profiles.list();
    expect(after).toMatchObject({ hasPrivateKey: true, keyFingerprint: before!.keyFingerprint });
    expect((await second.keys.current(after!.id))?.history).toHaveLength(1);
  });
});

describe('a keychain that cannot be used', () => {
  it('still opens, and says what to unlock', async () => {
    secrets.makeUnavailable('locked', 'linux');
    const app = await start();
    expect(app.report.keychain.usable).toBe(false);
    expect(JSON.stringify(app.report.keychain)).toMatch(/unlock/i);
    expect(app.report.sandbox.running).toBe(false);
    // Nothing was ever set up: this is the first run, even if the sandbox cannot start yet.
    expect(app.report.firstRun).toBe(true);
    await expect(app.profiles.list()).resolves.toEqual([]);
  });
});

describe('keys', () => {
  it('generates, exports the public key, keeps history, and keeps production and test keys apart', async () => {
    const app = await start();
    const test = await app.profiles.create({
      name: 'Test',
      environment: 'test',
      baseUrl: 'https://sandbox.example.com/paynet',
      endpointId: '42',
      login: 'shop',
      controlKey: 'CK-TEST',
    });
    const prod = await app.profiles.create({
      name: 'Production',
      environment: 'production',
      baseUrl: 'https://gate.example.com/paynet',
      endpointId: '43',
      login: 'shop',
      controlKey: 'CK-PROD',
    });
    const first = await app.keys.generate(test.id, 2048);
    expect(first.publicKeySpkiPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(first.publicKeyPkcs1Pem).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    expect(await app.keys.current(test.id)).toMatchObject({ fingerprint: first.fingerprint });
    const privatePem = await secrets.get(test.id, 'rsa-private-key');
    await expect(app.keys.import(prod.id, privatePem!)).rejects.toThrow(
      /a key pair belongs to one environment/,
    );
    expect(await secrets.get(prod.id, 'rsa-private-key')).toBeUndefined();
    const second = await app.keys.generate(test.id, 2048);
    expect(second.history.map((h) => h.fingerprint)).toEqual([
      second.fingerprint,
      first.fingerprint,
    ]);
  });
});

describe('nothing secret reaches the disk', () => {
  it('after a full scenario, the database and the log hold no control key, private key, card number or CVV', async () => {
    const app = await start();
    const [sandboxProfile] = await app.profiles.list();
    const prod = await app.profiles.create({
      name: 'Prod',
      environment: 'production',
      baseUrl: 'https://gate.example.com/paynet',
      endpointId: '43',
      login: 'shop',
      controlKey: 'CK-SECRET-PROD-0001',
    });
    await app.keys.generate(prod.id, 2048);
    const preauth = await app.orders.lookup(sandboxProfile!.id, {
      client_orderid: 'demo-auth-2003',
    });
    const capture = app.orders.openAction().clientOrderId;
    await app.orders.capture({
      profileId: sandboxProfile!.id,
      orderid: preauth.orderId,
      clientOrderId: capture,
      amount: '1.00',
    });
    const sale = await app.orders.lookup(sandboxProfile!.id, { client_orderid: 'demo-sale-1001' });
    const refund = app.orders.openAction().clientOrderId;
    await app.orders.refund({
      profileId: sandboxProfile!.id,
      orderid: sale.orderId,
      clientOrderId: refund,
      amount: '0.50',
      reason: 'Goodwill',
    });
    await Promise.all([app.orders.settled(capture), app.orders.settled(refund)]);
    // A clerk types card data into a note: refused before anything is stored or sent.
    await expect(
      app.orders.refund({
        profileId: sandboxProfile!.id,
        orderid: sale.orderId,
        clientOrderId: app.orders.openAction().clientOrderId,
        amount: '0.50',
        reason: 'Other',
        note: 'card 4111 1111 1111 1111 cvv 123',
      }),
    ).rejects.toMatchObject({ code: 'CARD_DATA', field: 'note' });
    const csv = await contentText(() => app.journal.csvChunks({}));
    expect(csv).not.toMatch(/4111|cvv 123/);
    await app.close();
    services = undefined;

    const secretsToFind = [
      (await secrets.get(sandboxProfile!.id, 'control-key'))!,
      'CK-SECRET-PROD-0001',
      ...[sandboxProfile!.id, prod.id].map((id) => {
        const pem = secretsOf(id);
        return pem.split('\n')[5]!; // a line from inside the private key
      }),
      '4444555566661111',
      '5555555555554444',
      '4111111111111111',
      '4111 1111 1111 1111',
      'cvv 123',
      'cvv2',
    ];
    const files = readdirSync(dataDir).filter((f) => f.startsWith('paydesk'));
    expect(files).toEqual(expect.arrayContaining(['paydesk.sqlite', 'paydesk.log']));
    for (const file of files) {
      const text = readFileSync(join(dataDir, file)).toString('latin1');
      for (const secret of secretsToFind)
        expect(text.includes(secret), `${secret.slice(0, 12)}… in ${file}`).toBe(false);
    }
    expect(readFileSync(join(dataDir, 'paydesk.log'), 'utf8')).toContain('journal entry changed');
    // Nor did the gateway get it as a comment.
    for (const file of readdirSync(dataDir).filter((f) => f.startsWith('sandbox.sqlite')))
      expect(readFileSync(join(dataDir, file)).toString('latin1')).not.toContain('cvv 123');

    function secretsOf(id: string): string {
      const value = (secrets as unknown as { values: Map<string, string> }).values.get(
        `${id}:rsa-private-key`,
      );
      if (!value) throw new Error('no private key in the keychain');
      return value;
    }
  });
});

describe('orders changed outside Paydesk', () => {
  it('a sale partly refunded at the gateway says so, since the journal cannot know the amount', async () => {
    const app = await start();
    const [profile] = await app.profiles.list();
    const order = await app.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1002' });
    expect(order).toMatchObject({
      orderStage: 'sale_partially_reversed',
      changedElsewhere: true,
      actions: {
        void: { allowed: false, reason: 'The order has refunds; it can no longer be voided.' },
      },
    });
    const untouched = await app.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1003' });
    expect(untouched.changedElsewhere).toBe(false);
  });

  it('a sale fully refunded at the gateway offers no refund, whatever the journal saw', async () => {
    const app = await start();
    const [profile] = await app.profiles.list();
    const order = await app.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1009' });
    expect(order).toMatchObject({
      orderStage: 'sale_reversed',
      remainingRefundable: '0.00',
      actions: { refund: { allowed: false, reason: 'The order is fully refunded.' } },
    });
  });
});
describe('demo orders: figures the gateway knows better, one state per order', () => {
  const lookup = async (app: PaydeskServices, coid: string) => {
    const [profile] = await app.profiles.list();
    return {
      profileId: profile!.id,
      order: await app.orders.lookup(profile!.id, { client_orderid: coid }),
    };
  };

  it('a sale refunded outside Paydesk shows "at least", no maximum, and the gateway names what is left', async () => {
    const app = await start();
    const { profileId, order } = await lookup(app, 'demo-sale-1001');
    expect(order).toMatchObject({
      state: 'partly-refunded',
      stateLabel: 'Partly refunded',
      refunded: '0.00',
      refundedAtLeast: true,
      remainingRefundable: null,
      actions: { refund: { allowed: true } },
    });
    expect(order.actions.refund.max).toBeUndefined();
    // Without an amount nothing is sent: Paydesk cannot know what is left.
    await expect(
      app.orders.refund({
        profileId,
        orderid: order.orderId,
        clientOrderId: app.orders.openAction().clientOrderId,
        reason: 'Customer request',
      }),
    ).rejects.toMatchObject({ code: 'AMOUNT', field: 'amount' });
    // The whole amount: the gateway refuses and says how much is really left.
    await expect(
      app.orders.refund({
        profileId,
        orderid: order.orderId,
        clientOrderId: app.orders.openAction().clientOrderId,
        amount: '49.90',
        reason: 'Customer request',
      }),
    ).rejects.toThrow(/above what is left to return, 30\.00 EUR/);
    const again = await lookup(app, 'demo-sale-1002');
    expect(again.order).toMatchObject({ refundedAtLeast: true, remainingRefundable: null });
  });

  it('a preauth captured outside Paydesk shows "at least" captured and no maximum to capture', async () => {
    const app = await start();
    const { order } = await lookup(app, 'demo-auth-2001');
    expect(order).toMatchObject({
      state: 'partly-captured',
      captured: '0.00',
      capturedAtLeast: true,
      remainingCapturable: null,
      actions: { capture: { allowed: true } },
    });
    expect(order.actions.capture.max).toBeUndefined();
  });

  it('a voided, a fully refunded and a cancelled order are not "Approved"', async () => {
    const app = await start();
    expect((await lookup(app, 'demo-sale-1008')).order).toMatchObject({
      state: 'voided',
      stateLabel: 'Voided',
    });
    expect((await lookup(app, 'demo-sale-1009')).order).toMatchObject({
      state: 'refunded',
      stateLabel: 'Refunded',
    });
    const { profileId, order } = await lookup(app, 'demo-auth-2002');
    expect(order.state).toBe('approved');
    const { clientOrderId } = app.orders.openAction();
    await app.orders.cancel({
      profileId,
      orderid: order.orderId,
      clientOrderId,
      reason: 'Customer cancelled',
    });
    expect(await app.orders.settled(clientOrderId)).toMatchObject({ status: 'approved' });
    const after = (await lookup(app, 'demo-auth-2002')).order;
    expect(after).toMatchObject({ state: 'hold-cancelled', stateLabel: 'Hold cancelled' });
    expect(after.statusText).not.toMatch(/Approved/);
  });

  it('a payout shows only its amount: no refund figures beside "cannot be refunded"', async () => {
    const app = await start();
    const { order } = await lookup(app, 'demo-payout-3001');
    expect(order).toMatchObject({
      figureKind: 'amount-only',
      amount: '250.00',
      refunded: null,
      remainingRefundable: null,
      captured: null,
      remainingCapturable: null,
      actions: { refund: { allowed: false, reason: 'A payout cannot be refunded.' } },
    });
  });
});
