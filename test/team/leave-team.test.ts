// Leaving a team gives the desk back exactly what it had (docs/team.md, "Leaving the team"): a
// desk with its own production profile joins a team whose admin shares a profile of the same
// name, works there, and stops using the team journal. After the restart its own profile is
// listed again under its own name, with the control key and private key it had, and the team's
// copies are not listed (kept aside, with the key this desk entered for them, named in Settings)
// until the desk joins again. Whole desks: Paydesk's services started as the app starts them,
// on a real PostgreSQL, through Settings -> Team journal's own use and stop.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { createTeamDatabase, type TeamDb } from '../support/team';
import { startDesk, type TestDesk } from './support/team-desk';

const withPostgres = postgresForTests('the leaving-a-team tests');

const OWN = {
  name: 'Shop live EUR',
  environment: 'production' as const,
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '4100',
  login: 'shop-live',
};
const OWN_CONTROL_KEY = 'DESK-OWN-CONTROL-7C1D';
// The team's profile of the same name is another merchant account: nothing is lent between them.
const TEAMS = { ...OWN, endpointId: '4200', login: 'team-shop' };
const TEAM_CONTROL_KEY = 'TEAM-CONTROL-ENTERED-ON-DESK-19AA';

describe.skipIf(!withPostgres)('leaving a team (real PostgreSQL, whole desks)', () => {
  let cluster: PgCluster;
  let team: TeamDb;
  let admin: TestDesk;
  let dataDir: string;
  const secrets = new MemorySecretStore();

  const startAnn = () =>
    PaydeskServices.start({
      dataDir,
      secrets,
      operator: 'os-ann',
      sandboxDelayMs: 50,
      team: { connectTimeoutMs: 2_000 },
    });
  const names = async (app: PaydeskServices) =>
    (await app.profiles.list()).map((p) => p.name).sort();
  const settingsOfAnn = () => {
    const url = new URL(team.urlOf('ann'));
    return {
      host: '127.0.0.1',
      port: cluster.port,
      database: team.database,
      login: 'ann',
      password: decodeURIComponent(url.password),
      desk: 'Front-1',
      tls: 'none' as const,
    };
  };

  beforeAll(async () => {
    cluster = await startCluster();
    team = await createTeamDatabase(cluster, 'leaving');
    admin = await startDesk(team, 'ada', 'Admin-1');
    await admin.join();
    await admin.app.profiles.create({ ...TEAMS, controlKey: 'ADMIN-DESK-KEY' });
    await admin.app.profiles.create({
      ...TEAMS,
      name: 'Team USD',
      endpointId: '4300',
      controlKey: 'ADMIN-DESK-KEY-2',
    });
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-leaving-'));
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
    await team?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a desk that joined and left has its own "Shop live EUR" back, with its keychain secrets untouched', async () => {
    // Before the team: the desk's own production profile, its control key and its RSA key.
    let app = await startAnn();
    const own = await app.profiles.create({ ...OWN, controlKey: OWN_CONTROL_KEY });
    const ownKey = await app.keys.generate(own.id, 2048);
    const ownPrivateKey = await secrets.get(own.id, 'rsa-private-key');
    expect(ownPrivateKey).toBeDefined();
    expect(await names(app)).toEqual(['Sandbox', 'Shop live EUR']);

    // Joining: Settings -> Team journal -> Use team journal, and the restart it asks for.
    await app.teamSettings.use(settingsOfAnn());
    await app.close();
    app = await startAnn();
    expect(app.port.store).toBe('postgres');
    const onTeam = await app.profiles.list();
    expect(onTeam.map((p) => p.name).sort()).toEqual(['Sandbox', 'Shop live EUR', 'Team USD']);
    const teamsShop = onTeam.find((p) => p.name === 'Shop live EUR')!;
    expect(teamsShop.id).not.toBe(own.id);
    expect(teamsShop.team).toBeDefined();
    // The desk enters its own control key for the team's profile (Profiles -> Edit).
    await app.profiles.update(teamsShop.id, { ...TEAMS, controlKey: TEAM_CONTROL_KEY });

    // Leaving: Settings -> Team journal -> Stop using it, and the restart.
    await app.teamSettings.stop();
    await app.close();
    app = await startAnn();
    try {
      expect(app.port.store).toBe('sqlite');
      const back = await app.profiles.list();
      expect(back.map((p) => p.name).sort()).toEqual(['Sandbox', 'Shop live EUR']);
      const shop = back.find((p) => p.name === 'Shop live EUR')!;
      // The desk's own profile, as it was: its id, its account, its keys.
      expect(shop).toMatchObject({
        id: own.id,
        environment: 'production',
        baseUrl: OWN.baseUrl,
        endpointId: OWN.endpointId,
        login: OWN.login,
        keyFingerprint: ownKey.fingerprint,
        hasControlKey: true,
        hasPrivateKey: true,
      });
      expect(shop.team).toBeUndefined();
      expect(await secrets.get(own.id, 'control-key')).toBe(OWN_CONTROL_KEY);
      expect(await secrets.get(own.id, 'rsa-private-key')).toBe(ownPrivateKey);
      // The team's copies are not the desk's: not listed, named in Settings, the key this desk
      // entered for one of them kept (nothing is lost) for when the desk joins again.
      expect((await app.teamSettings.current()).keptFromTeam).toEqual([
        'Shop live EUR',
        'Team USD',
      ]);
      expect(await secrets.get(teamsShop.id, 'control-key')).toBe(TEAM_CONTROL_KEY);
      // The desk's own profile can be changed again, as any of its own.
      await app.profiles.update(own.id, { ...OWN, name: 'Shop live EUR (main)' });
      expect(await names(app)).toEqual(['Sandbox', 'Shop live EUR (main)']);
      await app.profiles.update(own.id, OWN);
    } finally {
      await app.close();
    }

    // Joining again: the team's copies come back with the key this desk entered.
    await app.teamSettings.use(settingsOfAnn());
    app = await startAnn();
    try {
      const again = await app.profiles.list();
      expect(again.map((p) => p.name).sort()).toEqual(['Sandbox', 'Shop live EUR', 'Team USD']);
      expect(again.find((p) => p.id === teamsShop.id)).toMatchObject({
        name: 'Shop live EUR',
        hasControlKey: true,
      });
      expect((await app.teamSettings.current()).keptFromTeam).toEqual([]);
    } finally {
      await app.teamSettings.stop();
      await app.close();
    }
  }, 120_000);
});
