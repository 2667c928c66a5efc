// Shared profiles with private secrets, on a real PostgreSQL and whole desks (Paydesk's services
// as the app starts them, each with its own data folder and keychain): an admin's change reaches
// the other desks' copies, anyone else's is refused by the database and said plainly, no secret
// ever reaches the database, and a desk whose key is not the team's says so.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { StoreError } from '../../main/store/errors';
import { ProfileError } from '../../main/store/profiles/profile';
import {
  findPostgresBin,
  postgresForTests,
  startCluster,
  type PgCluster,
} from '../support/postgres';
import { createTeamDatabase, type TeamDb, rejection } from '../support/team';
import { startDesk, type TestDesk } from './support/team-desk';
import { CONTROL_KEY } from '../support/samples';

const withPostgres = postgresForTests('the shared profiles tests');
const run = promisify(execFile);

const SHOP = {
  name: 'Shop EUR',
  environment: 'production' as const,
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '1234',
  login: 'shop',
};

describe.skipIf(!withPostgres)('shared profiles (real PostgreSQL, whole desks)', () => {
  let cluster: PgCluster;
  let team: TeamDb;
  let owner: pg.Client;
  let adaDesk: TestDesk;
  let annDesk: TestDesk;
  let samDesk: TestDesk;
  let sharedId: string;

  const sharedRow = async (id: string) =>
    (await owner.query('SELECT * FROM paydesk.profiles WHERE id = $1', [id])).rows[0] as
      Record<string, unknown> | undefined;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await createTeamDatabase(cluster, 'shared_profiles');
    owner = await team.owner();
    [adaDesk, annDesk, samDesk] = await Promise.all([
      startDesk(team, 'ada', 'Admin-1'),
      startDesk(team, 'ann', 'Front-1'),
      startDesk(team, 'sam', 'Help-1'),
    ]);
    // Ann's desk had its own copy of the shop before the team, with its own control key.
    const local = await annDesk.app.profiles.create({ ...SHOP, controlKey: 'ANN-LOCAL-CONTROL' });
    await annDesk.app.keys.generate(local.id, 2048);
    await Promise.all([adaDesk.join(), annDesk.join(), samDesk.join()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([adaDesk, annDesk, samDesk].map((d) => d?.close()));
    await team?.close();
    await cluster?.stop();
  });

  it("an admin's new profile goes to the team's database first; every desk lists it beside its own Sandbox", async () => {
    const created = await adaDesk.app.profiles.create({ ...SHOP, controlKey: CONTROL_KEY });
    sharedId = created.id;
    expect(created).toMatchObject({
      name: 'Shop EUR',
      hasControlKey: true,
      team: { canEdit: true, updatedBy: 'ada', keyState: 'none', keyMessage: null },
    });
    expect(await sharedRow(sharedId)).toMatchObject({ name: 'Shop EUR', updated_by: 'ada' });

    await annDesk.app.team.profiles.refresh();
    const annList = await annDesk.app.profiles.list();
    expect(annList.map((p) => p.name).sort()).toEqual(['Sandbox', 'Shop EUR']);
    const annShop = annList.find((p) => p.id === sharedId)!;
    // Ann's local profile had the same gateway account: it lent the shared one its control key,
    // and it is set aside, not listed.
    expect(annShop).toMatchObject({ hasControlKey: true, team: { canEdit: false } });
    expect(annDesk.app.team.profiles.mirror.setAside()).toMatchObject([
      { name: 'Shop EUR (this desk)', teamProfileId: sharedId },
    ]);
    expect(annList.find((p) => p.embedded)).toMatchObject({ name: 'Sandbox', hasControlKey: true });
    expect(annList.find((p) => p.embedded)!.team).toBeUndefined();
  });

  it("an admin's edit reaches another desk's copy", async () => {
    await adaDesk.app.profiles.update(sharedId, { ...SHOP, name: 'Shop EUR main' });
    expect(await sharedRow(sharedId)).toMatchObject({ name: 'Shop EUR main' });
    const report = await samDesk.app.team.profiles.refresh();
    expect(report.shared).toBe(1);
    expect((await samDesk.app.profiles.get(sharedId)).name).toBe('Shop EUR main');
  });

  it('a finance or support login cannot add, change or remove a shared profile: the database refuses, said plainly', async () => {
    for (const [desk, login, group] of [
      [annDesk, 'ann', 'paydesk_finance'],
      [samDesk, 'sam', 'paydesk_support'],
    ] as const) {
      await desk.app.team.profiles.refresh();
      const edit = await rejection(
        desk.app.profiles.update(sharedId, { ...SHOP, name: 'Mine now', controlKey: 'X-1' }),
      );
      expect(edit).toBeInstanceOf(ProfileError);
      expect(edit.message).toBe(
        `Only a Paydesk admin may change the team's shared profiles; the team's database refused it for your login ${login} (${group}). Ask an admin of your team to change "Shop EUR main".`,
      );
      const add = await rejection(
        desk.app.profiles.create({ ...SHOP, name: 'Another', controlKey: 'X-2' }),
      );
      expect(add.message).toMatch(/^Only a Paydesk admin may add the team's shared profiles/);
      expect((await rejection(desk.app.profiles.remove(sharedId))).message).toMatch(
        /^Only a Paydesk admin may remove/,
      );
      // Nothing changed, on the team nor on the desk; the control key refused with the edit
      // did not replace the desk's.
      expect(await sharedRow(sharedId)).toMatchObject({ name: 'Shop EUR main', updated_by: 'ada' });
      expect((await desk.app.profiles.get(sharedId)).name).toBe('Shop EUR main');
      expect(await desk.secrets.get(sharedId, 'control-key')).not.toBe('X-1');
    }
    // The refusal is the database's, not only the service's: Ann's own SQL is refused too.
    const ann = await team.connect('ann');
    await expect(
      ann.query(`UPDATE paydesk.profiles SET name = 'x' WHERE id = $1`, [sharedId]),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it("any desk may set its own control key for a shared profile: it stays in that desk's keychain", async () => {
    const current = await samDesk.app.profiles.get(sharedId);
    const updated = await samDesk.app.profiles.update(sharedId, {
      name: current.name,
      environment: current.environment,
      baseUrl: current.baseUrl,
      endpointId: current.endpointId,
      login: current.login,
      controlKey: 'SAM-DESK-CONTROL-KEY',
    });
    expect(updated.hasControlKey).toBe(true);
    expect(await samDesk.secrets.get(sharedId, 'control-key')).toBe('SAM-DESK-CONTROL-KEY');
  });

  it("the team's key is the admin's fingerprint; a desk without it, or with another, says so with both fingerprints", async () => {
    const adaKey = await adaDesk.app.keys.generate(sharedId, 2048);
    expect(await sharedRow(sharedId)).toMatchObject({ key_fingerprint: adaKey.fingerprint });
    expect((await adaDesk.app.profiles.get(sharedId)).team).toMatchObject({
      keyState: 'same',
      keyMessage: null,
    });

    await samDesk.app.team.profiles.refresh();
    const sam = (await samDesk.app.profiles.get(sharedId)).team!;
    expect(sam).toMatchObject({
      keyState: 'missing-here',
      teamFingerprint: adaKey.fingerprint,
      deskFingerprint: null,
    });
    expect(sam.keyMessage).toBe(
      `The team signs "Shop EUR main" with its key, and this desk has no private key for it. Import the team's key on this desk (Keys → Import; an admin gives you the file).`,
    );

    // Ann's desk lent the shared profile the key of its old local profile: not the team's.
    await annDesk.app.team.profiles.refresh();
    const ann = (await annDesk.app.profiles.get(sharedId)).team!;
    expect(ann.keyState).toBe('differs');
    expect(ann.deskFingerprint).not.toBe(adaKey.fingerprint);
    expect(ann.teamFingerprint).toBe(adaKey.fingerprint);
    expect(ann.keyMessage).toContain(`This desk's key for "Shop EUR main" is not the team's key.`);
    expect(ann.keyMessage).toContain("Import the team's key on this desk");

    // Only an admin changes the team's key: Sam may neither make one nor import another.
    expect((await rejection(samDesk.app.keys.generate(sharedId, 2048))).message).toMatch(
      /only an admin makes a new key for a shared profile/,
    );
    const annPem = (await annDesk.secrets.get(sharedId, 'rsa-private-key'))!;
    expect((await rejection(samDesk.app.keys.import(sharedId, annPem))).message).toContain(
      `is not the team's key for this profile (${adaKey.fingerprint})`,
    );
    expect(await sharedRow(sharedId)).toMatchObject({ key_fingerprint: adaKey.fingerprint });

    // Importing the team's key mends the desk.
    const teamPem = (await adaDesk.secrets.get(sharedId, 'rsa-private-key'))!;
    await samDesk.app.keys.import(sharedId, teamPem);
    expect((await samDesk.app.profiles.get(sharedId)).team).toMatchObject({
      keyState: 'same',
      deskFingerprint: adaKey.fingerprint,
    });

    // An admin's rotation changes the team's key: Sam's desk, still on the old one, says so.
    const rotated = await adaDesk.app.keys.generate(sharedId, 2048);
    expect(await sharedRow(sharedId)).toMatchObject({ key_fingerprint: rotated.fingerprint });
    await samDesk.app.team.profiles.refresh();
    expect((await samDesk.app.profiles.get(sharedId)).team).toMatchObject({
      keyState: 'differs',
      teamFingerprint: rotated.fingerprint,
      deskFingerprint: adaKey.fingerprint,
    });
  }, 60_000);

  it('no control key and no private key ever reaches the database (a full pg_dump)', async () => {
    const bin = findPostgresBin()!;
    const { stdout } = await run(
      join(bin, 'pg_dump'),
      ['--no-owner', cluster.superuserUrl(team.database)],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    expect(stdout).toContain('Shop EUR main'); // the dump has the shared profiles
    const secrets: string[] = [CONTROL_KEY, 'ANN-LOCAL-CONTROL', 'SAM-DESK-CONTROL-KEY'];
    for (const desk of [adaDesk, annDesk, samDesk]) {
      const pem = await desk.secrets.get(sharedId, 'rsa-private-key');
      // Any line of the key's body would do; all of them are checked.
      if (pem) secrets.push(...pem.split('\n').filter((l) => l.length > 40));
    }
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(stdout.includes(secret), secret.slice(0, 12)).toBe(false);
    expect(stdout).not.toMatch(/PRIVATE KEY/);
  });

  it("a running desk learns its person's new group at the next refresh, without a restart", async () => {
    const canEdit = async () =>
      (await samDesk.app.profiles.list()).find((p) => p.id === sharedId)?.team?.canEdit;
    expect(await canEdit()).toBe(false);
    await owner.query('GRANT paydesk_admin TO sam');
    try {
      // Still the groups of the last refresh until the desk reads the team's profiles again.
      expect(await canEdit()).toBe(false);
      await samDesk.app.team.profiles.refresh();
      expect(await canEdit()).toBe(true);
    } finally {
      await owner.query('REVOKE paydesk_admin FROM sam');
    }
    await samDesk.app.team.profiles.refresh();
    expect(await canEdit()).toBe(false);
  });

  it('with the database away, a desk says so on refresh and keeps working from its last copy', async () => {
    await cluster.halt();
    try {
      const refused = await rejection(samDesk.app.team.profiles.refresh());
      expect(refused).toBeInstanceOf(StoreError);
      expect((refused as StoreError).code).toBe('UNREACHABLE');
      const listed = await samDesk.app.profiles.list();
      expect(listed.find((p) => p.id === sharedId)).toMatchObject({
        name: 'Shop EUR main',
        team: { keyState: 'differs' },
      });
    } finally {
      await cluster.resume();
    }
    await samDesk.app.team.profiles.refresh();
  });
});
