// A desk on a team, in the browser: its Profiles screen lists the team's shared profile beside
// its own Sandbox, says who changed it and that only an admin may, and warns, on the Profiles and
// Keys screens, that the key this desk brought from its single-desk days is not the team's, with
// both fingerprints and what to do. A real PostgreSQL (test/support/postgres.ts) holds the team.
// With PAYDESK_SHOTS=<folder> it also writes team-profiles.png and team-keys.png there
// (PAYDESK_SHOTS=docs/screenshots npx vitest run test/e2e/team-profiles.test.ts, after npm run build).

import { join } from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { createTeamDatabase, type TeamDb } from '../support/team';
import { teamLinkOf } from '../team/support/team-desk';

const withPostgres = postgresForTests('the team profiles screens');
const SHOTS = process.env.PAYDESK_SHOTS;

const SHOP = {
  name: 'Production EUR',
  environment: 'production' as const,
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '4410',
  login: 'acme-eur',
};
const TEAM_FP = Array.from({ length: 32 }, (_, i) =>
  ((i * 37 + 11) % 256).toString(16).toUpperCase().padStart(2, '0'),
).join(':');

describe.skipIf(!withPostgres)('a desk on a team (browser)', () => {
  let cluster: PgCluster;
  let team: TeamDb;
  let h: Harness;
  let opened: Awaited<ReturnType<typeof teamLinkOf>>;
  let deskFp: string;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await createTeamDatabase(cluster, 'team_screens');
    const ada = await team.connect('ada');
    await ada.query(
      `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login, key_fingerprint)
       VALUES ('shared-eur', $1, $2, $3, $4, $5, $6)`,
      [SHOP.name, SHOP.environment, SHOP.baseUrl, SHOP.endpointId, SHOP.login, TEAM_FP],
    );
    h = await startHarness();
    h.page.setDefaultTimeout(10_000);
    // Before the team, this desk had the same merchant account with a key of its own.
    const local = await h.services.profiles.create({ ...SHOP, controlKey: 'DESK-CONTROL-KEY' });
    deskFp = (await h.services.keys.generate(local.id, 2048)).fingerprint;
    opened = await teamLinkOf(team, 'ann', 'Front-1');
    await h.services.team.profiles.join(opened);
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    await opened?.close();
    await closeSharedBrowser();
    await team?.close();
    await cluster?.stop();
  });

  it("lists the shared profile, and the Profiles screen says this desk's key is not the team's", async () => {
    const { page } = h;
    await h.open('#/profiles');
    const card = page.getByRole('article', { name: SHOP.name });
    await card.waitFor();
    await card.getByText(/^Shared by the team · last changed by ada/).waitFor();
    await card.getByText(/only an admin changes it/).waitFor();
    const warning = await card.getByRole('alert').textContent();
    expect(warning).toContain('Not the team’s key.');
    expect(warning).toContain(`Team's key${TEAM_FP}`);
    expect(warning).toContain(`This desk's key${deskFp}`);
    expect(warning).toContain("Import the team's key on this desk");
    await page.getByRole('article', { name: 'Sandbox' }).waitFor();
    // The local profile of the same account is set aside while on the team; removing the shared
    // one is an admin's, so this finance desk is not offered it.
    expect(await page.getByRole('article').count()).toBe(2);
    expect(await card.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'team-profiles.png'), fullPage: true });
  });

  it('the Keys screen says the same, with both fingerprints', async () => {
    const { page } = h;
    await h.open('#/keys');
    await page.getByLabel('Key for profile').selectOption({ label: `${SHOP.name} (production)` });
    const warning = page.getByRole('alert').filter({ hasText: "not the team's" });
    await warning.waitFor();
    const text = await warning.textContent();
    expect(text).toContain(TEAM_FP);
    expect(text).toContain(deskFp);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'team-keys.png'), fullPage: true });
  });

  it('support and finance logins cannot change it: the database refuses, the form says so', async () => {
    const { page } = h;
    await h.open('#/profiles');
    const card = page.getByRole('article', { name: SHOP.name });
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: /^Edit/ });
    await form.getByLabel('Endpoint id').fill('4411');
    await form.getByRole('button', { name: /^Save/ }).click();
    await page.getByText(/Only a Paydesk admin may change the team's shared profiles/).waitFor();
    const owner = new pg.Client({ connectionString: cluster.superuserUrl(team.database) });
    await owner.connect();
    try {
      const { rows } = await owner.query(`SELECT endpoint_id FROM paydesk.profiles`);
      expect(rows).toEqual([{ endpoint_id: '4410' }]);
    } finally {
      await owner.end();
    }
  });
});
