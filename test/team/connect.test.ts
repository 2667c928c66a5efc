// Opening a desk's team journal from what a person enters, on a real PostgreSQL: each way it can
// be wrong is said plainly, with who can fix it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { StoreError } from '../../main/store/errors';
import {
  openTeamJournal,
  TEAM_SCHEMA_VERSION,
  tlsFor,
  type TeamSettings,
} from '../../main/store/postgres/connect';
import { applyTeamSchema } from '../../main/store/postgres/schema';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { createTeamDatabase, type TeamDb, rejection } from '../support/team';

const withPostgres = postgresForTests('the team journal connection tests');

describe('TLS for the team journal', () => {
  it('is required to any other computer, verified; not to this one', () => {
    expect(tlsFor('db.example.com')).toEqual({ rejectUnauthorized: true });
    expect(tlsFor('10.0.0.5', 'PEM')).toEqual({ rejectUnauthorized: true, ca: 'PEM' });
    for (const host of ['localhost', '127.0.0.1', '::1', 'LOCALHOST'])
      expect(tlsFor(host)).toBe(false);
  });
});

describe.skipIf(!withPostgres)('opening the team journal (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamDb;
  let settings: (login: string, password: string, database?: string) => TeamSettings;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await createTeamDatabase(cluster, 'opening');
    settings = (login, password, database = 'opening') => ({
      host: cluster.host,
      port: cluster.port,
      database,
      login,
      password,
      desk: 'Front-1',
    });
  });
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
  });

  const passwordOf = (person: 'ann' | 'sam') =>
    decodeURIComponent(new URL(team.urlOf(person)).password);

  it('opens for a person in a Paydesk group and says who they are and what they may do', async () => {
    const opened = await openTeamJournal(settings('sam', passwordOf('sam')));
    try {
      expect(opened).toMatchObject({ login: 'sam', roles: ['paydesk_support'] });
      expect(await opened.journal.inFlight()).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('a wrong password: says the password is wrong, and where to type it again', async () => {
    const wrong = await rejection(openTeamJournal(settings('ann', 'not-her-password')));
    expect(wrong).toMatchObject({ code: 'NOT_ALLOWED', retryable: false });
    expect(wrong.message).toBe(
      `The password for ann on PostgreSQL at 127.0.0.1:${cluster.port} is wrong (password authentication failed for user "ann"). Type it again in Settings -> Team journal; if you do not know it, ask your database administrator to set a new one.`,
    );
  });

  it('an unknown database: says to check the database name', async () => {
    const unknown = await rejection(openTeamJournal(settings('ann', passwordOf('ann'), 'paydsk')));
    expect(unknown).toMatchObject({ code: 'FAILED', retryable: false });
    expect(unknown.message).toBe(
      `There is no database paydsk on PostgreSQL at 127.0.0.1:${cluster.port} (database "paydsk" does not exist). Check the database name in Settings -> Team journal: it is the one your database administrator set up for Paydesk (often paydesk).`,
    );
  });

  it('a login in no Paydesk group: says which group to ask for, and how', async () => {
    await cluster.asSuperuser((su) => su.query(`CREATE ROLE drifter LOGIN PASSWORD 'drifter-pw'`));
    const outsider = await rejection(openTeamJournal(settings('drifter', 'drifter-pw')));
    expect(outsider).toBeInstanceOf(StoreError);
    expect(outsider).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(outsider.message).toBe(
      `The login drifter is in none of the Paydesk groups (paydesk_support, paydesk_finance, paydesk_admin) on PostgreSQL at 127.0.0.1:${cluster.port}, so it may not read or write the team journal. Ask your database administrator to add it to the group for your work: paydesk_support to look orders up and read the journal, paydesk_finance to move money too, paydesk_admin to change the shared profiles and keys (for example GRANT paydesk_finance TO drifter;).`,
    );
  });

  it('a database closed to PUBLIC that the groups may not connect to: says what to grant', async () => {
    await cluster.asSuperuser(async (su) => {
      await su.query('CREATE DATABASE closed');
      await su.query('REVOKE CONNECT ON DATABASE closed FROM PUBLIC');
    });
    const closed = await rejection(openTeamJournal(settings('ann', passwordOf('ann'), 'closed')));
    expect(closed).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(closed.message).toContain(
      'Ask your database administrator to run GRANT CONNECT ON DATABASE closed TO paydesk_support, paydesk_finance, paydesk_admin;',
    );
  });

  it('a database never set up: says to run team:init', async () => {
    await cluster.asSuperuser((su) => su.query('CREATE DATABASE bare'));
    const bare = await rejection(openTeamJournal(settings('ann', passwordOf('ann'), 'bare')));
    expect(bare).toMatchObject({ code: 'FAILED' });
    expect(bare.message).toBe(
      `The database bare (PostgreSQL at 127.0.0.1:${cluster.port}) has no Paydesk team journal. Ask your database administrator to set it up with npm run team:init or docs/team.sql (docs/team.md).`,
    );
  });

  it('a schema newer than this Paydesk: says to update Paydesk', async () => {
    await cluster.asSuperuser((su) => su.query('CREATE DATABASE newer'));
    await cluster.asSuperuser(async (su) => {
      await applyTeamSchema(su);
      await su.query(
        `INSERT INTO paydesk.schema_version (version, description) VALUES ($1, 'from a newer Paydesk')`,
        [TEAM_SCHEMA_VERSION + 1],
      );
    }, 'newer');
    const refused = await rejection(openTeamJournal(settings('ann', passwordOf('ann'), 'newer')));
    expect(refused).toMatchObject({ code: 'NEWER_SCHEMA' });
    expect(refused.message).toContain(
      `was set up by a newer Paydesk (schema ${TEAM_SCHEMA_VERSION + 1}; this one knows ${TEAM_SCHEMA_VERSION})`,
    );
  });

  it('the server not answering: UNREACHABLE, retryable', async () => {
    const away = await rejection(
      openTeamJournal(
        { ...settings('ann', passwordOf('ann')), port: 1 },
        { connectTimeoutMs: 2_000 },
      ),
    );
    expect(away).toMatchObject({ code: 'UNREACHABLE', retryable: true });
    expect(away.message).toMatch(
      /^Paydesk cannot reach the team journal's database \(PostgreSQL at 127\.0\.0\.1:1: /,
    );
  });
});
