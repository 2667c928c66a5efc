// Settings -> Team journal and the start on it, over a real PostgreSQL: what a person saves
// (the password in the keychain, never in team.json or the SQLite file), the desk opening its
// team journal at start, the database away at start (the app opens, says so, refuses to journal,
// never falls back to its own SQLite journal) and coming back (writing works again without a
// restart), and going back to the local journal.

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { silentLogger } from '../../main/log';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { openJournalAtStart } from '../../main/services/team/journal-at-start';
import { readTeamSettings, TEAM_SECRET_ID } from '../../main/services/team/settings';
import { TeamSettingsService } from '../../main/services/team/team-settings';
import { openStore, type Store } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { connectTeamJournal, TEAM_SCHEMA_VERSION } from '../../main/store/postgres/connect';
import { contract } from '../../common/contract';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { selfSignedCertificate } from '../support/tls';
import { rejection } from '../support/team';

const withPostgres = postgresForTests('the team journal settings tests');

const PROFILE = 'p-settings';

describe('the team journal settings, before any database', () => {
  const base = {
    host: 'db.example.com',
    port: 5432,
    database: 'paydesk',
    login: 'ann',
    desk: 'Front-1',
    tls: 'none' as const,
  };

  it('refuses a plain connection to another computer, saying what to choose instead', () => {
    const parsed = contract.team.use.request.safeParse(base);
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(issue?.path).toEqual(['tls']);
    expect(issue?.message).toContain('db.example.com is another computer');
    expect(issue?.message).toContain('Choose "TLS, certificate verified"');
    // To this computer it is allowed, and TLS to any host is.
    expect(contract.team.use.request.safeParse({ ...base, host: 'localhost' }).success).toBe(true);
    expect(contract.team.use.request.safeParse({ ...base, tls: 'verified' }).success).toBe(true);
  });

  it('says which field is wrong: a port out of range, a URL for a host, a CA that is not PEM', () => {
    const first = (value: object) => contract.team.use.request.safeParse(value).error?.issues[0];
    expect(first({ ...base, tls: 'verified', port: 70_000 })).toMatchObject({
      path: ['port'],
      message: 'The port is between 1 and 65535.',
    });
    expect(first({ ...base, tls: 'verified', host: 'postgres://db.example.com' })?.path).toEqual([
      'host',
    ]);
    expect(first({ ...base, tls: 'verified', caPem: 'not a certificate' })?.message).toMatch(
      /^Paste the CA certificate as PEM/,
    );
  });

  it('a team.json that cannot be read is an error saying where it is, not the local journal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-team-bad-'));
    try {
      const file = join(dir, 'team.json');
      writeFileSync(file, '{"version":1,"settings":{"host":""}}');
      await expect(readTeamSettings(dir)).rejects.toThrow(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!withPostgres)('the team journal from Settings to start (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let dataDir: string;
  let secrets: MemorySecretStore;
  let store: Store;
  const opened: { close(): Promise<void> }[] = [];

  const passwordOf = (person: 'ann' | 'sam') =>
    decodeURIComponent(new URL(team.team.urlOf(person)).password);
  const settingsOf = (person: 'ann' | 'sam', extra: object = {}) => ({
    host: '127.0.0.1',
    port: cluster.port,
    database: 'settings',
    login: person,
    desk: 'Front-1',
    tls: 'none' as const,
    ...extra,
  });
  const service = () => new TeamSettingsService(dataDir, secrets, { connectTimeoutMs: 2_000 });
  const start = async () => {
    const journal = await openJournalAtStart({
      dataDir,
      db: store.db,
      secrets,
      operator: 'os-user',
      log: silentLogger,
      team: { connectTimeoutMs: 2_000 },
    });
    opened.push(journal.session);
    return journal;
  };

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'settings');
    await team.addProfile(PROFILE);
  });
  afterAll(async () => {
    await cluster?.resume();
    await team?.close();
    await cluster?.stop();
  });
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-team-settings-'));
    secrets = new MemorySecretStore();
    store = openStore(join(dataDir, 'paydesk.sqlite'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });
  afterAll(() => {
    store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('tests a connection: the login, its Paydesk group and the schema version', async () => {
    const found = await service().test({ ...settingsOf('sam'), password: passwordOf('sam') });
    expect(found).toEqual({
      login: 'sam',
      groups: ['paydesk_support'],
      schemaVersion: TEAM_SCHEMA_VERSION,
      where: `PostgreSQL at 127.0.0.1:${cluster.port}`,
    });
    // A test saves nothing.
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false);
    expect(await secrets.get(TEAM_SECRET_ID, 'team-password')).toBeUndefined();
  });

  it('TLS chosen, and the server offers none: refused before the password leaves, saying who turns it on', async () => {
    const refused = await rejection(
      service().test({ ...settingsOf('ann', { tls: 'verified' }), password: passwordOf('ann') }),
    );
    expect(refused).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(refused.message).toBe(
      `PostgreSQL at 127.0.0.1:${cluster.port} does not offer TLS, so Paydesk did not send the password. Ask your database administrator to turn TLS on (ssl = on); without TLS Paydesk connects only to a server on this computer.`,
    );
  });

  it('a wrong password is refused with the database sentence, and nothing is saved', async () => {
    const wrong = await rejection(service().use({ ...settingsOf('ann'), password: 'not-hers' }));
    expect(wrong).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(wrong.message).toContain('password authentication failed for user "ann"');
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false);
    expect(await secrets.get(TEAM_SECRET_ID, 'team-password')).toBeUndefined();
    // Without any password (none typed, none saved): the field to fill is named.
    const none = await rejection(service().test(settingsOf('ann')));
    expect(none).toMatchObject({ code: 'INPUT', field: 'password' });
  });

  it('"Use team journal" keeps the password in the keychain only, and the desk starts on the team journal', async () => {
    const password = passwordOf('ann');
    await service().use({ ...settingsOf('ann'), password });
    expect(await secrets.get(TEAM_SECRET_ID, 'team-password')).toBe(password);
    const file = readFileSync(join(dataDir, 'team.json'), 'utf8');
    expect(file).not.toContain(password);
    expect(JSON.parse(file)).toEqual({ version: 1, settings: settingsOf('ann') });
    const current = await service().current();
    expect(current).toEqual({
      settings: settingsOf('ann'),
      passwordSaved: true,
      keptFromTeam: [],
      file: join(dataDir, 'team.json'),
    });
    expect(JSON.stringify(current)).not.toContain(password);

    const atStart = await start();
    expect(atStart.report).toEqual({
      kind: 'team',
      reachable: true,
      where: `PostgreSQL at 127.0.0.1:${cluster.port}`,
    });
    expect(atStart.port.store).toBe('postgres');
    expect(await atStart.session.get()).toMatchObject({
      journal: 'team',
      login: 'ann',
      desk: 'Front-1',
      groups: ['paydesk_finance'],
      reachable: true,
    });
    await atStart.port.requireWritable('refund');
    // Test again with the password left empty: the keychain's is used.
    expect((await service().test(settingsOf('ann'))).login).toBe('ann');
  });

  it('the database away at start: the desk opens, says so, refuses to journal, writes nothing locally; back, it writes without a restart', async () => {
    const local = new Journal(store.db);
    const localBefore = local.search({}, 0, 1).total;
    await cluster.halt();
    const atStart = await start();
    expect(atStart.report).toMatchObject({ kind: 'team', reachable: false });
    expect(atStart.report.kind === 'team' && atStart.report.message).toMatch(
      /^Paydesk cannot reach the team journal's database \(PostgreSQL at 127\.0\.0\.1:\d+: .+\)\. Nothing that moves money is sent until it is back/,
    );
    const away = await atStart.session.get();
    expect(away).toMatchObject({ journal: 'team', login: 'ann', reachable: false });
    expect(away.problem).toMatch(/^Paydesk cannot reach the team journal's database/);
    const refused = await rejection(atStart.port.requireWritable('refund'));
    expect(refused).toMatchObject({ code: 'UNREACHABLE' });
    expect(refused.message).toMatch(/Nothing that moves money is sent until it is back/);
    const entry = {
      clientOrderId: `pd-${randomUUID()}`,
      profileId: PROFILE,
      operator: 'ann',
      operation: 'return',
      targetOrderId: '9001',
      amountMinor: 500n,
      currency: 'EUR',
      fields: { amount: '5.00' },
    };
    expect(await rejection(atStart.port.begin(entry))).toMatchObject({ code: 'UNREACHABLE' });
    // Never the desk's own journal instead: that would split the team's.
    expect(local.search({}, 0, 1).total).toBe(localBefore);

    await cluster.resume();
    expect(await atStart.session.get()).toMatchObject({ reachable: true, login: 'ann' });
    await atStart.port.requireWritable('refund');
    const written = await atStart.port.begin(entry);
    expect(written).toMatchObject({ clientOrderId: entry.clientOrderId, operator: 'ann' });
    const owner = await team.team.owner();
    const { rows } = await owner.query<{ desk: string }>(
      'SELECT desk FROM paydesk.journal WHERE client_orderid = $1',
      [entry.clientOrderId],
    );
    expect(rows).toEqual([{ desk: 'Front-1' }]);
    expect(local.search({}, 0, 1).total).toBe(localBefore);
  });

  it('a support login at start: reads, and the port refuses to move money with a plain sentence', async () => {
    await service().use({ ...settingsOf('sam'), password: passwordOf('sam') });
    const atStart = await start();
    expect(await atStart.session.get()).toMatchObject({
      login: 'sam',
      groups: ['paydesk_support'],
      reachable: true,
    });
    const refused = await rejection(atStart.port.requireWritable('refund'));
    expect(refused).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(refused.message).toBe(
      'Your team login sam is in paydesk_support, so it cannot refund: only paydesk_finance moves money. Nothing was sent or changed. Ask your database administrator if you should be in paydesk_finance.',
    );
    // Reading is allowed: the refund ann's desk wrote ahead is there, still in flight.
    expect((await atStart.port.inFlight()).map((e) => e.operator)).toEqual(['ann']);
  });

  it('a desk started while the database was away learns its groups once it is back, without a restart', async () => {
    await service().use({ ...settingsOf('ann'), password: passwordOf('ann') });
    const asOwner = async (sql: string) => {
      const owner = await team.team.owner();
      await owner.query(sql);
      await owner.end();
    };
    // Ann is made an admin: what her desk may do with the team's shared profile shows it.
    await asOwner('GRANT paydesk_admin TO ann');
    await cluster.halt();
    let app: PaydeskServices | undefined;
    try {
      app = await PaydeskServices.start({
        dataDir,
        secrets,
        operator: 'os-user',
        sandboxDelayMs: 50,
        team: { connectTimeoutMs: 2_000 },
      });
      expect(app.report.journal).toMatchObject({ kind: 'team', reachable: false });
      await cluster.resume();
      await app.team.profiles.refresh();
      const shared = (await app.profiles.list()).find((p) => p.id === PROFILE);
      expect(shared?.team).toMatchObject({ canEdit: true });
    } finally {
      await cluster.resume();
      await asOwner('REVOKE paydesk_admin FROM ann');
      await app?.close();
    }
  });

  it('the password gone from the keychain: the desk opens on neither journal and says what to do', async () => {
    await secrets.delete(TEAM_SECRET_ID, 'team-password');
    const atStart = await start();
    expect(atStart.report).toMatchObject({ kind: 'team', reachable: false });
    const refused = await rejection(atStart.port.requireWritable('refund'));
    expect(refused.message).toBe(
      `This desk uses the team journal (PostgreSQL at 127.0.0.1:${cluster.port}), but its password is not in this computer's keychain. Enter it again in Settings -> Team journal.`,
    );
    expect((await atStart.session.get()).problem).toBe(refused.message);
  });

  it('"Stop using it": the settings and the password go, the next start is on the local journal', async () => {
    await service().use({ ...settingsOf('ann'), password: passwordOf('ann') });
    await service().stop();
    expect(existsSync(join(dataDir, 'team.json'))).toBe(false);
    expect(await secrets.get(TEAM_SECRET_ID, 'team-password')).toBeUndefined();
    const atStart = await start();
    expect(atStart.report).toEqual({ kind: 'local' });
    expect(atStart.port.store).toBe('sqlite');
    expect(await atStart.session.get()).toEqual({
      journal: 'local',
      login: 'os-user',
      desk: null,
      groups: [],
      reachable: true,
    });
  });
});

describe.skipIf(!withPostgres)('the team journal over TLS (real PostgreSQL serving TLS)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let dataDir: string;
  let ca: string;

  beforeAll(async () => {
    const certificate = selfSignedCertificate();
    ca = certificate.cert;
    cluster = await startCluster({ tls: certificate });
    team = await teamHarness(cluster, 'tlsteam');
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-team-tls-'));
  });
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const settings = (extra: object) => ({
    host: '127.0.0.1',
    port: cluster.port,
    database: 'tlsteam',
    login: 'ann',
    password: decodeURIComponent(new URL(team.team.urlOf('ann')).password),
    desk: 'Front-1',
    tls: 'verified' as const,
    ...extra,
  });
  const service = () =>
    new TeamSettingsService(dataDir, new MemorySecretStore(), { connectTimeoutMs: 5_000 });

  it('connects with TLS when the company CA is pasted, and the session is encrypted', async () => {
    const found = await service().test(settings({ caPem: ca }));
    expect(found).toMatchObject({ login: 'ann', groups: ['paydesk_finance'] });
    // The desk's own connection, as the start opens it: TLS, per the server.
    const connection = connectTeamJournal(settings({ caPem: ca }));
    try {
      const { rows } = await connection.pool.query<{ ssl: boolean }>(
        'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
      );
      expect(rows).toEqual([{ ssl: true }]);
    } finally {
      await connection.close();
    }
  });

  it('refuses a certificate it cannot verify, saying to paste the CA certificate', async () => {
    const refused = await rejection(service().test(settings({})));
    expect(refused).toMatchObject({ code: 'NOT_ALLOWED' });
    expect(refused.message).toMatch(
      /^The certificate of PostgreSQL at 127\.0\.0\.1:\d+ could not be verified \(.+\), so Paydesk did not send the password\. Paste your company's CA certificate in Settings -> Team journal, or ask your database administrator which one signs the server's certificate\.$/,
    );
  });
});
