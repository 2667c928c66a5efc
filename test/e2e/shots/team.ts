// Team mode in the browser harness: a desk pointed at a throw-away PostgreSQL's team database
// (test/support), Settings -> Team journal filled in as a person would, and the screenshots of
// the team screens for the README (the settings tested, a support login's Orders screen).

import { rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { MemorySecretStore } from '../../../main/secrets';
import { saveTeamPassword, writeTeamSettings } from '../../../main/services/team/settings';
import { newDataDir, startHarness, type Harness } from '../../harness/harness';
import type { TeamHarness } from '../../support/journal-ports';
import type { PgCluster } from '../../support/postgres';
import type { Person } from '../../support/team';
import { lookUp } from './orders';
import { stableScreenshot } from '../../harness/fixed-clock';

export function passwordOf(team: TeamHarness, person: Person): string {
  return decodeURIComponent(new URL(team.team.urlOf(person)).password);
}

/** A batch of two refunds, loaded by a desk earlier (the role fence tests and screenshots). */
export const EARLIER_BATCH =
  'operation,client_orderid,amount,currency,reason,note\r\n' +
  'refund,demo-sale-1001,5.00,EUR,Damaged,\r\n' +
  'refund,demo-sale-1003,1.00,USD,Damaged,\r\n';

export interface TeamForm {
  host: string;
  port: string;
  database: string;
  login: string;
  password?: string;
  desk: string;
  tls?: 'TLS, certificate verified' | 'No TLS (only to this computer)';
}

/** Fills Settings -> Team journal field by field, by their labels. */
export async function fillTeamForm(page: Page, form: TeamForm): Promise<void> {
  await page.getByRole('textbox', { name: 'Server' }).fill(form.host);
  await page.getByRole('textbox', { name: 'Port' }).fill(form.port);
  await page.getByRole('textbox', { name: 'Database' }).fill(form.database);
  await page.getByRole('textbox', { name: 'Your login' }).fill(form.login);
  await page.getByLabel('Password', { exact: true }).fill(form.password ?? '');
  await page.getByRole('textbox', { name: 'This desk’s name' }).fill(form.desk);
  if (form.tls)
    await page.getByRole('combobox', { name: 'Connection security' }).selectOption(form.tls);
}

/**
 * A desk that already uses the team journal as `person` (team.json and the keychain's password
 * written as "Use team journal" would), opened in the harness.
 */
export async function teamDesk(
  cluster: PgCluster,
  team: TeamHarness,
  person: Person,
  desk = 'Front-1',
): Promise<Harness & { cleanUp(): void }> {
  const dataDir = newDataDir('paydesk-e2e-team-');
  const secrets = new MemorySecretStore();
  await writeTeamSettings(dataDir, {
    host: '127.0.0.1',
    port: cluster.port,
    database: team.team.database,
    login: person,
    desk,
    tls: 'none',
  });
  await saveTeamPassword(secrets, passwordOf(team, person));
  const h = await startHarness({
    dataDir,
    secrets,
    services: { team: { connectTimeoutMs: 2_000 } },
  });
  return Object.assign(h, { cleanUp: () => rmSync(dataDir, { recursive: true, force: true }) });
}

/**
 * The desk's built-in Sandbox shared with the team under its own id, as an admin shares a team
 * sandbox (docs/team.md): on a team only a shared profile can be journaled, so a finance desk
 * moves money on it. Named after the desk, as each desk's sandbox has its own address.
 */
export async function shareDeskSandbox(h: Harness, team: TeamHarness, desk: string): Promise<void> {
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('The desk has no Sandbox profile.');
  const owner = await team.team.owner();
  await owner.query(
    `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
     VALUES ($1, $2, 'sandbox', $3, $4, $5)`,
    [sandbox.id, `Sandbox ${desk}`, sandbox.baseUrl, sandbox.endpointId, sandbox.login],
  );
  await h.services.team.profiles.refresh();
}

async function shot(page: Page, path: string): Promise<string> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  await stableScreenshot(page, { path, caret: 'hide', animations: 'disabled', fullPage: true });
  return path;
}

/**
 * team-journal.png (a support login's connection tested), orders-support.png, keys-support.png,
 * batch-support.png,
 * team-journal-upload.png (a finance desk on the team, its journal ready to upload), and
 * team-journal-away.png (a finance desk started while the database was stopped).
 */
export async function shootTeam(
  cluster: PgCluster,
  team: TeamHarness,
  dir: string,
): Promise<string[]> {
  const paths: string[] = [];
  const fresh = await startHarness();
  try {
    await fresh.open('#/team-journal');
    await fillTeamForm(fresh.page, {
      host: '127.0.0.1',
      port: String(cluster.port),
      database: team.team.database,
      login: 'sam',
      password: passwordOf(team, 'sam'),
      desk: 'Support-2',
      tls: 'No TLS (only to this computer)',
    });
    await fresh.page.getByRole('button', { name: 'Test connection' }).click();
    await fresh.page.getByText(/^Connected to PostgreSQL/).waitFor();
    paths.push(await shot(fresh.page, join(dir, 'team-journal.png')));
  } finally {
    await fresh.close();
  }

  const support = await teamDesk(cluster, team, 'sam', 'Support-2');
  try {
    await support.open('#/lookup');
    await lookUp(support.page, 'demo-sale-1001');
    await support.page
      .getByText('Your login sam is in paydesk_support: looking up only.')
      .waitFor();
    paths.push(await shot(support.page, join(dir, 'orders-support.png')));
    paths.push(...(await shootSupportFences(support, dir)));
  } finally {
    await support.close();
    support.cleanUp();
  }

  // A finance desk on the team: who writes, and the one-time upload of this desk's own journal.
  const finance = await teamDesk(cluster, team, 'ann', 'Front-1');
  try {
    await finance.open('#/team-journal');
    await finance.page.getByText('The database answers.').waitFor();
    await finance.page.getByRole('heading', { name: "This desk's journal" }).waitFor();
    paths.push(await shot(finance.page, join(dir, 'team-journal-upload.png')));
  } finally {
    await finance.close();
    finance.cleanUp();
  }

  await cluster.halt();
  let away: Awaited<ReturnType<typeof teamDesk>> | undefined;
  try {
    away = await teamDesk(cluster, team, 'ann', 'Front-1');
    await away.open('#/team-journal');
    await away.page.getByText('The team journal cannot be used right now.').waitFor();
    await away.page.getByText('Writes the team journal').waitFor();
    paths.push(await shot(away.page, join(dir, 'team-journal-away.png')));
  } finally {
    await away?.close();
    away?.cleanUp();
    await cluster.resume();
  }
  return paths;
}

/**
 * keys-support.png (a support login on Keys: the profile's public key to copy and save, generating
 * and importing greyed) and batch-support.png (an earlier batch open, its results to save, loading
 * greyed).
 */
async function shootSupportFences(support: Harness, dir: string): Promise<string[]> {
  const { page, services } = support;
  const sandbox = (await services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('The support desk has no Sandbox profile.');
  await support.open('#/keys');
  await page.getByRole('button', { name: 'Copy public key' }).waitFor();
  const keys = await shot(page, join(dir, 'keys-support.png'));
  // A batch this desk loaded earlier and cancelled (loading and cancelling send nothing).
  const loaded = await services.batches.load(sandbox.id, 'returns-october.csv', EARLIER_BATCH);
  services.batches.cancel(loaded.batch.id);
  await support.open('#/batch');
  await page.getByRole('button', { name: `Open batch ${loaded.batch.id}` }).click();
  await page.getByRole('button', { name: 'Save the result CSV…' }).waitFor();
  return [keys, await shot(page, join(dir, 'batch-support.png'))];
}
