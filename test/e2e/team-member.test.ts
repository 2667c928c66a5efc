// A person joining and leaving a team, in Chromium against the real services and a real
// PostgreSQL (docs/team.md): a new finance member on a team with no shared profile yet sees why
// nothing can be sent on the built-in Sandbox before filling anything in, then works once an
// admin shares a profile and the desk holds its control key; and a desk that joined
// and left finds its own profile back, the team's named as kept aside in Settings, and team.sql
// saved there for the DBA.
// With PAYDESK_SHOTS=<folder>: team-new-member.png, team-desk-control-key.png, team-member-ready.png and
// team-left.png.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness } from '../harness/harness';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { lookUp } from './shots/orders';
import { fillTeamForm, passwordOf, teamDesk } from './shots/team';

const withPostgres = postgresForTests('the team member browser tests');
const SHOTS = process.env.PAYDESK_SHOTS;

const OWN = {
  name: 'Shop live EUR',
  environment: 'production' as const,
  baseUrl: 'https://gate.example.com/paynet',
  endpointId: '4100',
  login: 'shop-live',
};

describe.skipIf(!withPostgres)(
  'a person joining and leaving a team (Chromium, real PostgreSQL)',
  () => {
    let cluster: PgCluster;
    let team: TeamHarness;

    beforeAll(async () => {
      cluster = await startCluster();
      team = await teamHarness(cluster, 'e2emember');
    }, 60_000);
    afterAll(async () => {
      await team?.close();
      await cluster?.stop();
      await closeSharedBrowser();
    });

    it('a new finance member is told, before anything is filled in, why nothing can be sent on the Sandbox', async () => {
      const desk = await teamDesk(cluster, team, 'ann', 'Front-9');
      const { page } = desk;
      page.setDefaultTimeout(15_000);
      try {
        await desk.open('#/lookup');
        await lookUp(page, 'demo-sale-1001');
        const reason = page.getByText(
          /^"Sandbox" is this desk.s own profile, and the team journal records only the team.s shared profiles: nothing can be sent on it here\. Your team has no shared profile yet: nothing can be sent until an admin creates one/,
        );
        await reason.waitFor();
        for (const name of ['Refund…', 'Void…'])
          expect(await page.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
        if (SHOTS) {
          await page.mouse.move(0, 0);
          await page.screenshot({ path: join(SHOTS, 'team-new-member.png'), fullPage: true });
        }

        // The way forward: an admin shares the team's sandbox (here this desk's own sandbox
        // address, as each desk runs `npm run sandbox` on one port); the desk chooses it...
        const sandbox = (await desk.services.profiles.list()).find((p) => p.embedded)!;
        const owner = await team.team.owner();
        await owner.query(
          `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
           VALUES ($1, 'Team sandbox', 'sandbox', $2, $3, $4)`,
          [randomUUID(), sandbox.baseUrl, sandbox.endpointId, sandbox.login],
        );
        await desk.services.team.profiles.refresh();
        await desk.open('#/profiles');
        await page.reload(); // the header's list read again, as at the next start or refresh
        await page
          .getByRole('combobox', { name: 'Profile' })
          .selectOption({ label: 'Team sandbox' });
        // ...is told that it holds no control key for it yet (on a money screen, before any
        // field is filled in)...
        await desk.open('#/payouts');
        await page
          .getByText(
            'This desk holds no control key for "Team sandbox": nothing can be sent on it yet.',
            { exact: false },
          )
          .waitFor();
        // ...enters the key its admin gave (a finance login may not edit the team's profile, but
        // keeps its own key for it), and can refund.
        await desk.open('#/profiles');
        const card = page.getByRole('article', { name: 'Team sandbox' });
        await card
          .getByLabel('Control key for this desk')
          .fill((await desk.secrets.get(sandbox.id, 'control-key'))!);
        if (SHOTS) await card.screenshot({ path: join(SHOTS, 'team-desk-control-key.png') });
        await card.getByRole('button', { name: 'Save control key' }).click();
        await card.getByText('Saved in this computer’s keychain.').waitFor();
        await desk.open('#/lookup');
        await lookUp(page, 'demo-sale-1001');
        const refund = page.getByRole('button', { name: 'Refund…', exact: true });
        await expect.poll(() => refund.isEnabled()).toBe(true);
        if (SHOTS) {
          await page.mouse.move(0, 0);
          await page.screenshot({ path: join(SHOTS, 'team-member-ready.png'), fullPage: true });
        }
      } finally {
        await desk.close();
        desk.cleanUp();
      }
    }, 120_000);

    it('a desk that joined and left lists its own profile again; Settings names the team’s kept aside', async () => {
      const h = await startHarness({ services: { team: { connectTimeoutMs: 2_000 } } });
      const { page } = h;
      page.setDefaultTimeout(15_000);
      try {
        await h.services.profiles.create({ ...OWN, controlKey: 'DESK-OWN-CONTROL-7C1D' });
        // The team's admin shares a profile of the same name (another merchant account).
        const owner = await team.team.owner();
        await owner.query(
          `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
         VALUES ($1, 'Shop live EUR', 'production', 'https://gate.example.com/paynet', '4200', 'team-shop')`,
          [randomUUID()],
        );

        await h.open('#/team-journal');
        await fillTeamForm(page, {
          host: '127.0.0.1',
          port: String(cluster.port),
          database: team.team.database,
          login: 'ann',
          password: passwordOf(team, 'ann'),
          desk: 'Front-1',
          tls: 'No TLS (only to this computer)',
        });
        await page.getByRole('button', { name: 'Use team journal' }).click();
        await h.restarted();
        await h.open('#/team-journal');
        await page.getByText('The database answers.').waitFor();
        await page.getByRole('button', { name: 'Stop using it' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Stop using it' }).click();
        await h.restarted();

        await h.open('#/team-journal');
        await page.getByText('Writes its own journal, on this computer.').waitFor();
        const kept = page.locator('.kept-from-team');
        await kept.waitFor();
        expect(await kept.innerText()).toMatch(
          /^Kept aside from the team journal, with the keys this desk holds for them: (.*, )?Shop live EUR[,.]/,
        );
        if (SHOTS) {
          await page.mouse.move(0, 0);
          await page.screenshot({ path: join(SHOTS, 'team-left.png'), fullPage: true });
        }
        // The DBA's team.sql, saved from the app: the same text as docs/team.sql.
        await page.getByRole('button', { name: 'Save team.sql…' }).click();
        await page.getByText(/^Saved to .*team\.sql\.$/).waitFor();
        expect(h.saved.at(-1)).toMatchObject({
          name: 'team.sql',
          kind: 'sql',
          content: readFileSync(join(import.meta.dirname, '../../docs/team.sql'), 'utf8'),
        });
        const listed = await h.services.profiles.list();
        expect(listed.map((p) => [p.name, p.endpointId, p.team === undefined])).toEqual([
          ['Sandbox', '1111', true],
          ['Shop live EUR', '4100', true],
        ]);
      } finally {
        await h.close();
      }
    }, 120_000);
  },
);
