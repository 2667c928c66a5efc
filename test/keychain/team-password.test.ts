// The team journal's password in the REAL OS keychain (run as test/keychain/keytar.test.ts says,
// under a private D-Bus session with an unlocked throw-away keyring): "Use team journal" stores it
// there under its documented account, the next start reads it from there, "Stop using it" removes
// it, and it is never in team.json or the desk's SQLite file. The database is a real PostgreSQL.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { silentLogger } from '../../main/log';
import { KeytarSecretStore } from '../../main/secrets';
import { openJournalAtStart } from '../../main/services/team/journal-at-start';
import { TeamSettingsService } from '../../main/services/team/team-settings';
import { openStore, type Store } from '../../main/store/sqlite/database';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';

const service = `paydesk-test-${randomUUID()}`;
const secrets = new KeytarSecretStore({ service });
const status = await secrets.probe();
if (!status.usable)
  console.warn(`Skipping the team password keychain test: ${status.error.reason}`);
const withPostgres = status.usable && postgresForTests('the team password keychain test');

describe.skipIf(!withPostgres)('the team password in the real OS keychain', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let dataDir: string;
  let store: Store;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'keychainteam');
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-team-keychain-'));
    store = openStore(join(dataDir, 'paydesk.sqlite'));
  });
  afterAll(async () => {
    for (const { account } of await keytar.findCredentials(service))
      await keytar.deletePassword(service, account);
    store?.close();
    rmSync(dataDir, { recursive: true, force: true });
    await team?.close();
    await cluster?.stop();
  });

  it('is stored in and read from the keychain, and nowhere on disk', async () => {
    const password = decodeURIComponent(new URL(team.team.urlOf('ann')).password);
    const settings = new TeamSettingsService(dataDir, secrets, { connectTimeoutMs: 2_000 });
    await settings.use({
      host: '127.0.0.1',
      port: cluster.port,
      database: 'keychainteam',
      login: 'ann',
      password,
      desk: 'Front-1',
      tls: 'none',
    });
    // In the OS keychain, under the account docs/team.md names.
    expect(await keytar.getPassword(service, 'team-journal:team-password')).toBe(password);
    expect(readFileSync(join(dataDir, 'team.json'), 'utf8')).not.toContain(password);
    expect(readFileSync(join(dataDir, 'paydesk.sqlite')).includes(password)).toBe(false);

    // The next start reads it from there and opens the team journal as ann.
    const atStart = await openJournalAtStart({
      dataDir,
      db: store.db,
      secrets,
      operator: 'os-user',
      log: silentLogger,
      team: { connectTimeoutMs: 2_000 },
    });
    try {
      expect(await atStart.session.get()).toMatchObject({ login: 'ann', reachable: true });
    } finally {
      await atStart.session.close();
    }

    await settings.stop();
    expect(await keytar.findCredentials(service)).toEqual([]);
  });
});
