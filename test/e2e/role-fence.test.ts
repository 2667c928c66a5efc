// What a role may not change stays in view, disabled, under one line that says why; what only
// reads keeps working (renderer/src/components/RoleFence.tsx). A support login on Keys picks the
// profile whose key to look at, copies and saves its public key, and cannot generate or import;
// on Batch it opens an earlier batch, reads its rows and saves its result file, and cannot load,
// send or cancel. Then every screen and every state an action leaves it in (test/e2e/shots/
// fence.ts: an order looked up, a batch loaded, a batch paused...) is walked as support, finance
// and admin: where the fence holds, any enabled control that is not a known read-only one fails
// the walk, so a new changing button that forgets the fence cannot slip through; where it lets
// the person through, the changing controls must be usable. A finance login moved to support
// while a refund's panel is open loses its send buttons at once. A real PostgreSQL holds the team.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { stableScreenshot } from '../harness/fixed-clock';
import { closeSharedBrowser } from '../harness/harness';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import type { Person } from '../support/team';
import { FENCE_STATES, fenceProblems, seedDesk, walkFence, type Need } from './shots/fence';
import { lookUp } from './shots/orders';
import { EARLIER_BATCH, shareDeskSandbox, teamDesk } from './shots/team';

const withPostgres = postgresForTests('the role fence browser tests');

const NOT_ADMIN = (login: string, group: string) =>
  `Your login ${login} is in ${group}: only paydesk_admin changes profiles and keys.`;
const NOT_BACKUPS_ADMIN = (login: string, group: string) =>
  `Your login ${login} is in ${group}: only paydesk_admin chooses the backup folder and restores this desk's database. Backing up now and reading the list work for everyone.`;
const LOOKING_UP_ONLY = (login: string) =>
  `Your login ${login} is in paydesk_support: looking up only.`;
const NO_MONEY = (login: string) =>
  `Your login ${login} is in paydesk_admin: profiles and keys, no money (that is paydesk_finance).`;
const state = (name: string) => {
  const found = FENCE_STATES.find((s) => s.name === name);
  if (!found) throw new Error(`No fence state ${name}`);
  return found;
};

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
      expect(await fenceProblems(page, state('keys'), true)).toEqual([]);
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
      await page
        .getByRole('note')
        .filter({ hasText: LOOKING_UP_ONLY('sam') })
        .waitFor();
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
      expect(lines[1]).toMatch(
        /^refund,demo-sale-1001,5\.00,EUR,.*,\d+,pd-[a-z0-9-]+,cancelled,Cancelled before it was sent\.$/,
      );
      await view.getByText(/^Saved to /).waitFor();
      expect(await fenceProblems(page, state('batch: an earlier batch open'), true)).toEqual([]);
    } finally {
      await h.close();
      h.cleanUp();
    }
  }, 120_000);

  it('support on Backups: backs up now and reads the list; the folder and restoring stay disabled, saying why', async () => {
    const h = await teamDesk(cluster, team, 'sam', 'Support-3');
    const { page } = h;
    page.setDefaultTimeout(15_000);
    try {
      await h.open('#/backups');
      await page
        .getByRole('note')
        .filter({ hasText: NOT_BACKUPS_ADMIN('sam', 'paydesk_support') })
        .waitFor();
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.getByText(/^Backed up: paydesk-.*checked whole\.$/).waitFor();
      await page.getByRole('cell', { name: /^paydesk-.*\.sqlite$/ }).waitFor();
      for (const name of ['Restore…', 'Choose folder…', 'Use this folder'])
        expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Backup folder' }).isDisabled()).toBe(true);
      expect(await fenceProblems(page, state('backups'), true)).toEqual([]);
      const shots = process.env.PAYDESK_SHOTS;
      if (shots) {
        mkdirSync(shots, { recursive: true });
        await stableScreenshot(page, { path: join(shots, 'backups-support.png'), fullPage: true });
      }
    } finally {
      await h.close();
      h.cleanUp();
    }
  }, 120_000);

  const walks: [Person, Partial<Record<Need, string>>][] = [
    [
      'sam',
      {
        money: LOOKING_UP_ONLY('sam'),
        admin: NOT_ADMIN('sam', 'paydesk_support'),
        backups: NOT_BACKUPS_ADMIN('sam', 'paydesk_support'),
      },
    ],
    [
      'ann',
      {
        admin: NOT_ADMIN('ann', 'paydesk_finance'),
        backups: NOT_BACKUPS_ADMIN('ann', 'paydesk_finance'),
      },
    ],
    ['ada', { money: NO_MONEY('ada') }],
  ];
  it.each(walks)(
    'every screen and the states actions leave as %s: fenced, only read-only controls work; let through, the changing ones do',
    async (person, reasons) => {
      const h = await teamDesk(cluster, team, person, 'Walk-1');
      h.page.setDefaultTimeout(15_000);
      try {
        // The team shares this desk's sandbox: the fence is the person's group, not the profile.
        await shareDeskSandbox(h, team, `Walk-${person}`);
        const seeded = await seedDesk(h);
        expect(await walkFence(h, seeded, reasons)).toEqual({});
      } finally {
        await h.close();
        h.cleanUp();
      }
    },
    240_000,
  );

  it('finance moved to support while a refund panel is open: the database refuses, and every send button goes at once; Close still closes', async () => {
    const h = await teamDesk(cluster, team, 'bob', 'Front-2');
    const { page } = h;
    page.setDefaultTimeout(15_000);
    await shareDeskSandbox(h, team, 'Front-2');
    const moveBob = (from: string, to: string) =>
      cluster.asSuperuser((su) => su.query(`REVOKE ${from} FROM bob; GRANT ${to} TO bob`));
    try {
      await h.open('#/lookup');
      await lookUp(page, 'demo-sale-1003');
      await page.getByRole('button', { name: 'Refund…' }).click();
      await page.getByRole('textbox', { name: /^Amount to refund/ }).fill('1.00');
      await page.getByRole('combobox', { name: 'Reason' }).selectOption('Customer request');
      const review = page.getByRole('button', { name: 'Review refund' });
      expect(await review.isEnabled()).toBe(true);

      // A DBA moves bob to support while the panel is open.
      await moveBob('paydesk_finance', 'paydesk_support');
      const journalTotal = async () => (await h.services.journal.search({}, 0, 10)).total;
      const before = await journalTotal();
      await review.click();
      await page.getByRole('button', { name: 'Refund 1.00 USD' }).click();
      // The database refuses, and the screen reads the role again at once: no poll waited for.
      await page
        .getByRole('note')
        .filter({ hasText: LOOKING_UP_ONLY('bob') })
        .first()
        .waitFor();
      const panel = page.locator('#action-panel');
      await expect.poll(() => review.isDisabled()).toBe(true);
      expect(await panel.getByRole('textbox', { name: /^Amount to refund/ }).isDisabled()).toBe(
        true,
      );
      for (const name of ['Refund…', 'Void…'])
        expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
      expect(await journalTotal()).toBe(before);
      await panel.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => panel.count()).toBe(0);
    } finally {
      await moveBob('paydesk_support', 'paydesk_finance');
      await h.close();
      h.cleanUp();
    }
  }, 120_000);
});
