// What a role may not change stays in view, disabled, under one line that says why; what only
// reads keeps working (renderer/src/components/RoleFence.tsx). A support login on Keys picks the
// profile whose key to look at, copies and saves its public key, and cannot generate or import;
// on Batch it opens an earlier batch, reads its rows and saves its result file, and cannot load,
// send or cancel. Then every fenced screen is walked as support and as finance: any enabled
// control that is not a known read-only one (test/e2e/shots/fence.ts) fails the walk, so a new
// changing button that forgets the fence cannot slip through. A real PostgreSQL holds the team.

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser } from '../harness/harness';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import type { Person } from '../support/team';
import { FENCED_SCREENS, fenceProblems, READY, type FencedScreen } from './shots/fence';
import { EARLIER_BATCH, teamDesk } from './shots/team';

const withPostgres = postgresForTests('the role fence browser tests');

const NOT_ADMIN = (login: string, group: string) =>
  `Your login ${login} is in ${group}: only paydesk_admin changes profiles and keys.`;
const LOOKING_UP_ONLY = 'Your login sam is in paydesk_support: looking up only.';

describe.skipIf(!withPostgres)('the role fence (Chromium, real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'e2efence');
  }, 60_000);
  const asAda = async (work: (ada: pg.Client) => Promise<unknown>) => {
    const ada = await team.team.connect('ada');
    try {
      await work(ada);
    } finally {
      await ada.end();
    }
  };
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
    await closeSharedBrowser();
  });

  it('support on Keys: chooses the profile, copies and saves the public key; generating and importing stay disabled, saying why', async () => {
    const h = await teamDesk(cluster, team, 'sam', 'Support-2');
    const { page } = h;
    page.setDefaultTimeout(15_000);
    try {
      // A profile the team shares beside the desk's own Sandbox: two keys to choose from.
      await asAda((ada) =>
        ada.query(
          `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
           VALUES ('shared-fence', 'Shop EUR', 'production', 'https://gate.example.com/paynet', '4410', 'shop')`,
        ),
      );
      await h.services.team.profiles.refresh();
      const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
      // The desk's own Sandbox has its key from the first start.
      const pem = (await h.services.keys.current(sandbox!.id))!.publicKeySpkiPem;
      await h.open('#/keys');
      await page
        .getByRole('note')
        .filter({ hasText: NOT_ADMIN('sam', 'paydesk_support') })
        .waitFor();

      // Choosing whose key to look at is reading: the other profile, then back.
      const chooser = page.getByRole('combobox', { name: 'Key for profile' });
      await chooser.selectOption({ label: 'Shop EUR (production)' });
      await page.getByText('Only this screen shows Shop EUR; the active profile stays').waitFor();
      await page.getByText('This profile has no RSA key yet.').waitFor();
      await chooser.selectOption(sandbox!.id);
      await page.getByText('The active profile.').waitFor();

      await page.getByRole('button', { name: 'Copy public key' }).click();
      await page.getByText('The public key (PEM) is on the clipboard.').waitFor();
      expect(h.clipboard).toEqual([pem]);
      await page.getByRole('button', { name: 'Save public_key.pem…' }).click();
      await page.getByText(/public_key\.pem saved to /).waitFor();
      expect(h.saved.map((f) => [f.name, f.content])).toEqual([['public_key.pem', pem]]);

      for (const name of ['Generate new key…', 'Import and rotate…'])
        expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Private key (PEM)' }).isDisabled()).toBe(
        true,
      );
      // The greyed controls point at the line that says why.
      const fence = page.locator('fieldset.role-fence').first();
      const reasonId = await fence.getAttribute('aria-describedby');
      expect(await page.locator(`#${reasonId}`).innerText()).toBe(
        NOT_ADMIN('sam', 'paydesk_support'),
      );
      expect(await fenceProblems(page, 'keys')).toEqual([]);
      // Nothing changed: the same key.
      expect((await h.services.keys.current(sandbox!.id))?.publicKeySpkiPem).toBe(pem);
    } finally {
      // The next desks start with no shared profile, so each makes its own Sandbox.
      await asAda((ada) => ada.query(`DELETE FROM paydesk.profiles WHERE id = 'shared-fence'`));
      await h.close();
      h.cleanUp();
    }
  }, 120_000);

  it('support on Batch: opens an earlier batch, reads its rows and saves its results; loading, sending and cancelling stay disabled', async () => {
    const h = await teamDesk(cluster, team, 'sam', 'Support-2');
    const { page } = h;
    page.setDefaultTimeout(15_000);
    try {
      // A batch this desk loaded earlier (as a finance person using it would) and cancelled:
      // loading and cancelling send nothing and write only this desk's own batch list.
      const profile = (await h.services.profiles.list()).find((p) => p.embedded);
      const loaded = await h.services.batches.load(
        profile!.id,
        'returns-october.csv',
        EARLIER_BATCH,
      );
      h.services.batches.cancel(loaded.batch.id);
      const id = loaded.batch.id;

      await h.open('#/batch');
      await page.getByRole('note').filter({ hasText: LOOKING_UP_ONLY }).waitFor();
      const load = page.getByRole('form', { name: 'Load a batch' });
      expect(await load.getByRole('button', { name: 'Check the rows' }).isDisabled()).toBe(true);
      expect(await load.getByLabel('CSV file').isDisabled()).toBe(true);
      expect(await load.getByLabel('Or paste the rows').isDisabled()).toBe(true);

      await page.getByRole('button', { name: `Open batch ${id}` }).click();
      const view = page.getByRole('region', { name: `Batch ${id}` });
      await view.getByText('returns-october.csv').waitFor();
      const rows = view.locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).innerText()).toMatch(/5\.00 EUR\s+cancelled/);

      await view.getByRole('button', { name: 'Save the result CSV…' }).click();
      await expect.poll(() => h.saved.length).toBe(1);
      expect(h.saved[0]?.name).toBe('returns-october-result.csv');
      const lines = (h.saved[0]?.content ?? '').trim().split('\r\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/^2,refund,\d+,.*,5\.00,EUR,/);
      await view.getByText(/^Saved to /).waitFor();
      expect(await fenceProblems(page, 'batch')).toEqual([]);
    } finally {
      await h.close();
      h.cleanUp();
    }
  }, 120_000);

  // Fenced for whoever is not an admin; every other fenced screen is fenced for who may not pay.
  const ADMIN_SCREENS: readonly FencedScreen[] = ['profiles', 'keys'];
  const walks: [Person, string | undefined, string, FencedScreen[]][] = [
    ['sam', LOOKING_UP_ONLY, NOT_ADMIN('sam', 'paydesk_support'), [...FENCED_SCREENS]],
    ['ann', undefined, NOT_ADMIN('ann', 'paydesk_finance'), [...ADMIN_SCREENS]],
  ];
  it.each(walks)(
    'every fenced screen as %s: each enabled control is a known read-only one',
    async (person, moneyReason, adminReason, screens) => {
      const h = await teamDesk(cluster, team, person, 'Walk-1');
      const { page } = h;
      page.setDefaultTimeout(15_000);
      try {
        // Something on each screen to act on: the Sandbox's key (from the first start), an
        // earlier batch.
        const profile = (await h.services.profiles.list()).find((p) => p.embedded);
        const loaded = await h.services.batches.load(profile!.id, 'walk.csv', EARLIER_BATCH);
        h.services.batches.cancel(loaded.batch.id);
        const problems: Record<string, string[]> = {};
        for (const screen of screens) {
          await h.open(`#/${screen}`);
          const reason = ADMIN_SCREENS.includes(screen) ? adminReason : moneyReason;
          await page.getByRole('note').filter({ hasText: reason }).waitFor();
          if (screen === 'batch')
            await page.getByRole('button', { name: `Open batch ${loaded.batch.id}` }).click();
          await page.getByText(READY[screen]).first().waitFor();
          const found = await fenceProblems(page, screen);
          if (found.length > 0) problems[screen] = found;
        }
        expect(problems).toEqual({});
      } finally {
        await h.close();
        h.cleanUp();
      }
    },
    180_000,
  );
});
