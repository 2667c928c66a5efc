// One gateway client per profile, kept between operations, and never signing with a key or
// control key the profile no longer has: against the real sandbox, which refuses a request
// signed with any key but the merchant's current one.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AuthError } from '../../main/gateway/errors';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { MemorySecretStore } from '../../main/secrets';
import { Connections } from '../../main/services/connection';
import { openDatabase, type Db } from '../../main/store/sqlite/database';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder, SHOP, shopProfile } from '../support/shop';
import { CONTROL_KEY } from '../support/samples';

function rsaKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

let dir: string;
let db: Db;
let sandbox: Sandbox;
let secrets: MemorySecretStore;
let connections: Connections;
let profileId: string;
const first = rsaKeys();
const second = rsaKeys();

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-connections-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  sandbox = await startSandbox({
    merchants: [{ ...SHOP, controlKey: CONTROL_KEY, publicKeyPem: first.publicKeyPem }],
    delayMs: 20,
    tickMs: 10,
    log: () => undefined,
  });
  const profiles = new Profiles(db);
  profileId = shopProfile(db, sandbox);
  secrets = new MemorySecretStore();
  await secrets.set(profileId, 'control-key', CONTROL_KEY);
  await secrets.set(profileId, 'rsa-private-key', first.privateKeyPem);
  connections = new Connections(profiles, secrets);
});

afterEach(async () => {
  await sandbox.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An RSA-SHA256 signed operation (create a card reference from an approved sale). */
async function cardRef(orderid: string) {
  const { client } = await connections.clientFor(profileId);
  return client.call('CARDREF_V4', { client_orderid: `ref-${Math.random()}`, orderid });
}

describe('connections', () => {
  it('keeps one client per profile while its credentials stay the same', async () => {
    const a = await connections.clientFor(profileId);
    const b = await connections.clientFor(profileId);
    expect(b.client).toBe(a.client);
  });

  it('signs with the new key right after a rotation, whether or not it was told', async () => {
    const { client } = await connections.clientFor(profileId);
    const orderid = await approvedOrder(client, 'SALE', '10.00');
    expect((await cardRef(orderid)).status).toBe('approved');

    // Rotation as the keychain sees it, with nobody calling forget: the next operation must
    // read the new key and sign with it.
    await secrets.set(profileId, 'rsa-private-key', second.privateKeyPem);
    sandbox.replaceMerchant({
      ...SHOP,
      controlKey: CONTROL_KEY,
      publicKeyPem: second.publicKeyPem,
    });
    expect((await cardRef(orderid)).status).toBe('approved');

    // And back, this time told: the key the gateway no longer has is never used again.
    await secrets.set(profileId, 'rsa-private-key', first.privateKeyPem);
    connections.forget(profileId);
    await expect(cardRef(orderid)).rejects.toThrow(AuthError);
  });

  it('uses a changed control key at the next operation', async () => {
    const { client } = await connections.clientFor(profileId);
    const orderid = await approvedOrder(client, 'SALE', '10.00');
    await secrets.set(profileId, 'control-key', 'another-control-key');
    const next = await connections.clientFor(profileId);
    expect(next.client).not.toBe(client);
    await expect(next.client.status({ orderid })).rejects.toThrow(AuthError);
  });
});
