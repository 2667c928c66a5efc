// Settings -> Team journal in Chromium against the real services and a real PostgreSQL: the
// mistakes a person makes (a plain connection to another computer, a wrong password, a login in
// no Paydesk group) each said at the right place, then the right settings tested and used (the
// app restarts on the team journal, the password only in the keychain); and a support login's
// Orders screen, which looks up but offers no money button, saying why.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEAM_SECRET_ID } from '../../main/services/team/settings';
import { TEAM_SCHEMA_VERSION } from '../../main/store/postgres/connect';
import { uploadBatch } from '../../main/store/postgres/upload';
import { closeSharedBrowser, startHarness } from '../harness/harness';
import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { lookUp } from './shots/orders';
import { fillTeamForm, passwordOf, teamDesk } from './shots/team';

const withPostgres = postgresForTests('the team journal browser tests');
/** With PAYDESK_SHOTS=<folder>: journal-uploaded-entry.png (the detail of an uploaded entry). */
const SHOTS = process.env.PAYDESK_SHOTS;

describe.skipIf(!withPostgres)('Settings -> Team journal (Chromium, real PostgreSQL)', () => {
  let cluster: PgCluster;
  let team: TeamHarness;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'e2eteam');
    await cluster.asSuperuser((su) => su.query(`CREATE ROLE drifter LOGIN PASSWORD 'drifter-pw'`));
  }, 60_000);
  afterAll(async () => {
    await team?.close();
    await cluster?.stop();
    await closeSharedBrowser();
  });

  it('says what to fix for each mistake, then tests, uses and restarts on the team journal', async () => {
    const h = await startHarness({ services: { team: { connectTimeoutMs: 2_000 } } });
    const { page } = h;
    page.setDefaultTimeout(15_000);
    try {
      await h.open('#/team-journal');
      await page.getByRole('heading', { level: 1, name: 'Team journal' }).waitFor();
      await page.getByText('Writes its own journal, on this computer.').waitFor();
      const tested = () => page.getByText(/^Connected to PostgreSQL/);
      const notConnected = () => page.getByRole('alert').filter({ hasText: 'Not connected:' });

      // 1. Another computer without TLS: refused at the field, before anything is asked.
      await fillTeamForm(page, {
        host: 'db.example.com',
        port: '5432',
        database: 'e2eteam',
        login: 'ann',
        password: 'whatever',
        desk: 'Front-1',
        tls: 'No TLS (only to this computer)',
      });
      await page.getByRole('button', { name: 'Test connection' }).click();
      const tls = page.getByRole('combobox', { name: 'Connection security' });
      await expect.poll(() => tls.getAttribute('aria-invalid')).toBe('true');
      const tlsError = await page.locator(`#${await tls.getAttribute('id')}-error`).innerText();
      expect(tlsError).toContain('db.example.com is another computer');
      expect(tlsError).toContain('Choose "TLS, certificate verified"');
      expect(await tls.evaluate((e) => e === document.activeElement)).toBe(true);

      // 2. This computer, a wrong password: the database's own sentence.
      await fillTeamForm(page, {
        host: '127.0.0.1',
        port: String(cluster.port),
        database: 'e2eteam',
        login: 'ann',
        password: 'not-her-password',
        desk: 'Front-1',
      });
      await page.getByRole('button', { name: 'Test connection' }).click();
      await notConnected().waitFor();
      expect(await notConnected().innerText()).toContain(
        'password authentication failed for user "ann"',
      );

      // 3. A login in no Paydesk group: who can fix it.
      await fillTeamForm(page, {
        host: '127.0.0.1',
        port: String(cluster.port),
        database: 'e2eteam',
        login: 'drifter',
        password: 'drifter-pw',
        desk: 'Front-1',
      });
      await page.getByRole('button', { name: 'Use team journal' }).click();
      const notSaved = page.getByRole('alert').filter({ hasText: 'Not saved:' });
      await notSaved.waitFor();
      expect(await notSaved.innerText()).toContain(
        'The login drifter is in none of the Paydesk groups (paydesk_support, paydesk_finance, paydesk_admin)',
      );
      expect(existsSync(join(h.dataDir, 'team.json'))).toBe(false);

      // 4. Right: tested, then used; Paydesk restarts on the team journal.
      const password = passwordOf(team, 'ann');
      await fillTeamForm(page, {
        host: '127.0.0.1',
        port: String(cluster.port),
        database: 'e2eteam',
        login: 'ann',
        password,
        desk: 'Front-1',
      });
      await page.getByRole('button', { name: 'Test connection' }).click();
      await tested().waitFor();
      expect(await tested().innerText()).toBe(
        `Connected to PostgreSQL at 127.0.0.1:${cluster.port} as ann, in paydesk_finance; team schema ${TEAM_SCHEMA_VERSION}.`,
      );
      await page.getByRole('button', { name: 'Use team journal' }).click();
      await page.getByText('Paydesk restarts now to open the journal you chose.').waitFor();
      await h.restarted();
      await page.getByText('Team journal: ann (paydesk_finance), desk Front-1').waitFor();
      expect(h.services.report.journal).toEqual({
        kind: 'team',
        reachable: true,
        where: `PostgreSQL at 127.0.0.1:${cluster.port}`,
      });
      // The password: in the keychain, in neither the settings file nor the desk's database.
      expect(await h.secrets.get(TEAM_SECRET_ID, 'team-password')).toBe(password);
      expect(readFileSync(join(h.dataDir, 'team.json'), 'utf8')).not.toContain(password);
      expect(readFileSync(join(h.dataDir, 'paydesk.sqlite')).includes(password)).toBe(false);
      // The screen never gets it back: the field is empty, saying where it is.
      await h.open('#/team-journal');
      const field = page.getByLabel('Password', { exact: true });
      await page.getByText('Writes the team journal').waitFor();
      expect(await field.inputValue()).toBe('');
      expect(await field.getAttribute('placeholder')).toBe('saved in this computer’s keychain');
      expect(await page.content()).not.toContain(password);

      // 5. Stop using it: back on the desk's own journal after the restart.
      await page.getByRole('button', { name: 'Stop using it' }).click();
      await page
        .getByRole('dialog', { name: 'Stop using the team journal?' })
        .getByRole('button', { name: 'Stop using it' })
        .click();
      await page.getByText('Paydesk restarts now to open the journal you chose.').waitFor();
      await h.restarted();
      await page.getByText('Writes its own journal, on this computer.').waitFor();
      expect(h.services.report.journal).toEqual({ kind: 'local' });
      expect(await h.secrets.get(TEAM_SECRET_ID, 'team-password')).toBeUndefined();
    } finally {
      await h.close();
    }
  }, 120_000);

  it("a support login's Orders screen: looks up, offers no money button, says why", async () => {
    const h = await teamDesk(cluster, team, 'sam', 'Support-2');
    const { page } = h;
    page.setDefaultTimeout(15_000);
    try {
      await h.open('#/lookup');
      await page.getByText('Team journal: sam (paydesk_support), desk Support-2').waitFor();
      await lookUp(page, 'demo-sale-1001');
      const actions = page.getByRole('group', { name: 'Actions' });
      const reason = actions.getByRole('note');
      await reason.waitFor();
      expect(await reason.innerText()).toBe(
        'Your login sam is in paydesk_support: looking up only.',
      );
      const buttons = actions.getByRole('button');
      expect(await buttons.count()).toBeGreaterThan(0);
      for (const button of await buttons.all()) expect(await button.isDisabled()).toBe(true);
      // Every money screen says the same and greys its controls; the journal is there to read.
      await h.open('#/payouts');
      await page.getByRole('note').filter({ hasText: 'looking up only' }).waitFor();
      expect(
        await page.locator('fieldset.role-fence').evaluate((f: HTMLFieldSetElement) => f.disabled),
      ).toBe(true);
      // Admin screens: only paydesk_admin changes profiles and keys.
      await h.open('#/profiles');
      await page
        .getByRole('note')
        .filter({
          hasText:
            'Your login sam is in paydesk_support: only paydesk_admin changes profiles and keys.',
        })
        .waitFor();
    } finally {
      await h.close();
      h.cleanUp();
    }
  }, 120_000);

  it('the database away at start: the app opens with a banner, and it goes when the database is back', async () => {
    await cluster.halt();
    let h: Awaited<ReturnType<typeof teamDesk>> | undefined;
    try {
      h = await teamDesk(cluster, team, 'ann');
      const { page } = h;
      page.setDefaultTimeout(15_000);
      await h.open('#/lookup');
      const banner = page
        .getByRole('alert')
        .filter({ hasText: 'The team journal cannot be used right now.' });
      await banner.waitFor();
      expect(await banner.innerText()).toMatch(/Paydesk cannot reach the team journal's database/);
      expect(await banner.innerText()).toContain('does not write this desk');
      // Lookups of the gateway still work; money buttons wait for the database.
      await lookUp(page, 'demo-sale-1001');
      await page
        .getByRole('group', { name: 'Actions' })
        .getByRole('note')
        .filter({ hasText: 'The team journal cannot be reached' })
        .waitFor();
      // The gateway's facts are shown; the journal's figures are unknown, never a confident 0.
      await page.getByText('The journal cannot be read, so nothing can be sent').waitFor();
      expect(await page.getByRole('row', { name: /^Refunded/ }).innerText()).toContain(
        'Unknown: the journal cannot be read',
      );
      await cluster.resume();
      // Asked again every few seconds: the banner goes without a restart.
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      await page.getByText('Team journal: ann (paydesk_finance), desk Front-1').waitFor();
    } finally {
      await cluster.resume();
      await h?.close();
      h?.cleanUp();
    }
  }, 120_000);

  it("an entry uploaded from a desk's journal: its detail names the uploader as operator and says what the desk recorded", async () => {
    // A connection of its own: the test before it stopped the server under the harness's.
    const ada = await team.team.connect('ada');
    try {
      await ada.query(
        `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
         VALUES ('shared-upload-e2e', 'Shop uploaded', 'production', 'https://gate.example.com/paynet', '1234', 'shop')`,
      );
    } finally {
      await ada.end();
    }
    const ann = new pg.Pool({ connectionString: team.team.urlOf('ann'), max: 1 });
    const at = '2026-11-02T09:15:00.000Z';
    const clientOrderId = 'pd-uploaded-e2e-0001';
    try {
      const outcome = await uploadBatch(ann, 'the test team', 'Front-7', [
        {
          client_orderid: clientOrderId,
          profile_id: 'shared-upload-e2e',
          operator: 'clerk-on-desk',
          operation: 'RETURN',
          target_orderid: '4100077',
          target_client_orderid: 'shop-77',
          action: 'partial-refund',
          changed_elsewhere: false,
          orderid: '4100078',
          amount_minor: '250',
          currency: 'EUR',
          reason: 'Damaged',
          note: null,
          email: null,
          summary: { client_orderid: clientOrderId, orderid: '4100077', amount: '2.50' },
          state: 'final',
          status: 'approved',
          error_code: null,
          error_message: null,
          created_at: at,
          updated_at: at,
          final_at: at,
          sent_at: at,
          settled_by: 'clerk-on-desk',
          settle_reason: 'Approved on the gateway console',
          result: {},
        },
      ]);
      expect(outcome).toEqual([{ entry: clientOrderId, outcome: 'uploaded' }]);
    } finally {
      await ann.end();
    }
    const h = await teamDesk(cluster, team, 'ann', 'Front-1');
    const { page } = h;
    page.setDefaultTimeout(15_000);
    try {
      await h.open('#/journal');
      await page
        .getByRole('button', { name: `Details of Partial refund ${clientOrderId}` })
        .click();
      const dialog = page.getByRole('dialog', {
        name: `Journal entry Partial refund ${clientOrderId}`,
      });
      const uploaded = dialog.getByRole('definition').filter({ hasText: 'recorded there as' });
      await uploaded.waitFor();
      // The operator is the login that uploaded it (the database's word); the desk's is beside it.
      expect(await uploaded.innerText()).toMatch(
        /^Front-7, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d; recorded there as clerk-on-desk, settled by hand there by clerk-on-desk$/,
      );
      const text = await dialog.innerText();
      expect(text).toMatch(/Operator\s+ann/);
      expect(text).toMatch(/Settled by hand\s+by ann: Approved on the gateway console/);
      if (SHOTS) await dialog.screenshot({ path: join(SHOTS, 'journal-uploaded-entry.png') });
    } finally {
      await h.close();
      h.cleanUp();
    }
  }, 120_000);
});
