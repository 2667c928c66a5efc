// A desk starting on its team's journal asks the database each thing once: the schema's version
// and who the login is (paydesk.me) are checked when the journal opens, and the shared profiles
// and the login's groups are taken from that check, not asked again. Counted by the server itself
// (log_statement=all), whatever the desk's code says it sent.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { TeamSettingsService } from '../../main/services/team/team-settings';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import {
  loggedStatements,
  postgresForTests,
  startCluster,
  type PgCluster,
} from '../support/postgres';

const withPostgres = postgresForTests('the team start tests');

const DESK = 'Front-1';

describe.skipIf(!withPostgres)('a desk starting on the team journal (real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let dataDir: string;

  beforeAll(async () => {
    cluster = await startCluster({ logStatements: true });
    team = await teamHarness(cluster, 'team_start');
    await team.addProfile('shared-eur');
    dataDir = mkdtempSync(join(tmpdir(), 'paydesk-team-start-'));
  });
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the schema version, the login and the shared profiles once each', async () => {
    const secrets = new MemorySecretStore();
    await new TeamSettingsService(dataDir, secrets).use({
      host: '127.0.0.1',
      port: cluster.port,
      database: 'team_start',
      login: 'ann',
      password: decodeURIComponent(new URL(team.team.urlOf('ann')).password),
      desk: DESK,
      tls: 'none',
    });
    const before = cluster.serverLog().length;

    const app = await PaydeskServices.start({
      dataDir,
      secrets,
      operator: 'os-ann',
      sandboxDelayMs: 50,
      team: { connectTimeoutMs: 5_000 },
    });
    try {
      await app.reconciled;
      // The desk works on the team: its profiles are the team's, its session the login's.
      expect((await app.profiles.list()).map((p) => p.id)).toContain('shared-eur');
      const sent = loggedStatements(cluster.serverLog().slice(before), `Paydesk ${DESK}`);

      const asked = (what: RegExp) => sent.filter((s) => what.test(s)).length;
      expect({
        schemaVersion: asked(/paydesk\.schema_version/),
        me: asked(/paydesk\.me\b/),
        profiles: asked(/FROM paydesk\.profiles/),
      }).toEqual({ schemaVersion: 1, me: 1, profiles: 1 });
      // Nothing else is asked twice either.
      const repeated = sent.filter((s, i) => sent.indexOf(s) !== i);
      expect(repeated).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
