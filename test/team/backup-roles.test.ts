// Settings -> Backups on a team: choosing where the desk's backups go and putting one in place of
// its database are an admin's, as profiles and keys are. Each desk runs on the team's journal
// (real PostgreSQL, its login's group read from the database); the calls go through the bridge
// as the window makes them. A support login is refused by main with one sentence saying who it
// is and who may, the folder picker never opens for it and nothing changes; backing up now and
// reading the list stay everyone's. An admin login does all of it.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { channelOf } from '../../common/contract';
import { createBridge, type Bridge } from '../../main/bridge';
import { createHandlers } from '../../main/handlers';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { TeamSettingsService } from '../../main/services/team/team-settings';
import { pendingChoice } from '../../main/store/sqlite/journal-file';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import type { Person } from '../support/team';

const withPostgres = postgresForTests('the backups role tests');

interface Desk {
  app: PaydeskServices;
  bridge: Bridge;
  dataDir: string;
  /** Folders the picker was opened at. */
  pickerOpened: string[];
  close(): Promise<void>;
}

describe.skipIf(!withPostgres)('Settings -> Backups on a team (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'backup_roles');
  }, 60_000);
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
  });

  async function deskOf(person: Person, pick: string): Promise<Desk> {
    const dataDir = mkdtempSync(join(tmpdir(), `paydesk-backup-roles-${person}-`));
    const secrets = new MemorySecretStore();
    await new TeamSettingsService(dataDir, secrets).use({
      host: '127.0.0.1',
      port: cluster.port,
      database: 'backup_roles',
      login: person,
      password: decodeURIComponent(new URL(team.team.urlOf(person)).password),
      desk: `Desk-${person}`,
      tls: 'none',
    });
    const app = await PaydeskServices.start({
      dataDir,
      secrets,
      operator: `os-${person}`,
      backups: 'off',
      sandboxDelayMs: 50,
      team: { connectTimeoutMs: 5_000 },
    });
    const pickerOpened: string[] = [];
    const bridge = createBridge(
      createHandlers(app, {
        version: 'test',
        operator: person,
        saveFile: () => Promise.resolve({ saved: false }),
        copyText: () => undefined,
        chooseFolder: (current) => {
          pickerOpened.push(current);
          return Promise.resolve(pick);
        },
      }),
      { isTrustedSender: () => true },
    );
    return {
      app,
      bridge,
      dataDir,
      pickerOpened,
      close: async () => {
        await app.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  const call = (desk: Desk, namespace: string, method: string, payload: unknown = {}) =>
    desk.bridge.handle(
      channelOf(namespace, method),
      { url: 'app://paydesk/', isTopFrame: true },
      payload,
    );

  it('refuses a support login the folder, the picker, restoring and a new journal, saying why; backing up works', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'paydesk-backup-roles-share-'));
    const sam = await deskOf('sam', elsewhere);
    try {
      const made = await call(sam, 'backups', 'backUpNow');
      expect(made).toMatchObject({ ok: true });
      const name = (made as { data: { name: string } }).data.name;
      const listed = await call(sam, 'backups', 'status');
      expect(listed).toMatchObject({ ok: true, data: { backups: [{ name }] } });

      const refusal = {
        ok: false,
        error: {
          code: 'NOT_ALLOWED',
          message:
            "Your login sam is in paydesk_support: only paydesk_admin chooses the backup folder and restores this desk's database. Backing up now and reading the list work for everyone.",
        },
      };
      expect(await call(sam, 'backups', 'setFolder', { folder: elsewhere })).toMatchObject(refusal);
      expect(await call(sam, 'backups', 'chooseFolder')).toMatchObject(refusal);
      expect(await call(sam, 'backups', 'restore', { name })).toMatchObject(refusal);
      expect(await call(sam, 'backups', 'startNewJournal')).toMatchObject(refusal);

      // Nothing changed: the picker never opened, the folder is the default, no restore waits.
      expect(sam.pickerOpened).toEqual([]);
      expect(sam.app.backups.folder).toBe(join(sam.dataDir, 'backups'));
      expect(existsSync(join(sam.dataDir, 'backups.json'))).toBe(false);
      expect(pendingChoice(sam.dataDir)).toBeUndefined();
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      await sam.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 60_000);

  it('lets an admin login choose the folder with the picker and restore', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'paydesk-backup-roles-share-'));
    const ada = await deskOf('ada', elsewhere);
    try {
      expect(await call(ada, 'backups', 'chooseFolder')).toMatchObject({
        ok: true,
        data: { chosen: true, status: { folder: elsewhere } },
      });
      expect(ada.pickerOpened).toEqual([join(ada.dataDir, 'backups')]);
      const made = await call(ada, 'backups', 'backUpNow');
      const name = (made as { data: { name: string } }).data.name;
      expect(readdirSync(elsewhere)).toEqual([name]);
      const typed = join(ada.dataDir, 'typed');
      mkdirSync(typed);
      expect(await call(ada, 'backups', 'setFolder', { folder: typed })).toMatchObject({
        ok: true,
        data: { folder: typed },
      });
      expect(await call(ada, 'backups', 'setFolder', { folder: elsewhere })).toMatchObject({
        ok: true,
      });
      expect(await call(ada, 'backups', 'restore', { name })).toMatchObject({
        ok: true,
        data: { restarting: false },
      });
      expect(pendingChoice(ada.dataDir)).toEqual({
        kind: 'restore',
        backup: join(elsewhere, name),
      });
    } finally {
      await ada.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 60_000);
});
