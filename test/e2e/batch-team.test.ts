// The Batch screen on a team journal (real PostgreSQL) whose server stops: the clerk presses
// Send, nothing is sent because nothing can be journaled, and the batch pauses saying why in the
// words of the store; once the server is back, Resume sends every row once. The paused batch is
// screenshot to the temp folder, or to $PAYDESK_SCREENSHOT_DIR (docs/screenshots holds
// batch-journal-away.png, taken so).

import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { teamHarness, type TeamHarness } from '../support/journal-ports';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { loadBatchFile } from './shots/batch';

const withPostgres = postgresForTests('the Batch screen on a team journal');

const TWO_REFUNDS =
  'operation,client_orderid,amount,currency,reason,note\r\n' +
  'refund,demo-sale-1001,5.00,EUR,Damaged,\r\n' +
  'refund,demo-sale-1003,1.00,USD,Damaged,\r\n';

describe.skipIf(!withPostgres)('Batch screen on a team journal', () => {
  let cluster: PgCluster;
  let team: TeamHarness;
  let h: Harness;

  beforeAll(async () => {
    cluster = await startCluster();
    team = await teamHarness(cluster, 'e2e_batch');
    h = await startHarness({ services: { journal: team.desk('ann', 'Front-1') } });
    h.page.setDefaultTimeout(10_000);
    const [profile] = await h.services.profiles.list();
    await team.addProfile(profile!.id); // shared profiles are the team's (docs/team.md)
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await closeSharedBrowser();
    await cluster?.resume().catch(() => undefined);
    await team?.close();
    await cluster?.stop();
  });

  it('pauses saying the journal is away, sends nothing, and resumes once it is back', async () => {
    const { page } = h;
    await loadBatchFile(h, 'returns-team.csv', TWO_REFUNDS);
    const view = page.getByRole('region', { name: /^Batch \d+$/ });
    await cluster.halt();

    await view.getByRole('button', { name: 'Send 2 rows…' }).click();
    await page
      .getByRole('dialog', { name: /Send batch \d+\?/ })
      .getByRole('button', { name: 'Send 2 rows', exact: true })
      .click();
    const notice = view.getByRole('alert').filter({ hasText: 'The batch paused by itself' });
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(
      /Paydesk cannot reach the team journal's database .* Nothing that moves money is sent until it is back/,
    );
    expect(await view.getByText('done 0').count()).toBe(1);
    // The rows wait: none was sent.
    expect(await view.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/\bwaiting\b/),
      expect.stringMatching(/\bwaiting\b/),
    ]);
    await page.screenshot({
      path: join(process.env.PAYDESK_SCREENSHOT_DIR ?? tmpdir(), 'batch-journal-away.png'),
      fullPage: true,
    });

    await cluster.resume();
    // Nothing reached the journal (nor, so, the gateway) while it was away.
    await expect.poll(async () => (await h.services.journal.search({}, 0, 10)).total).toBe(0);
    await view.getByRole('button', { name: 'Resume' }).click();
    await page
      .getByRole('dialog', { name: /Resume batch \d+\?/ })
      .getByRole('button', { name: 'Resume', exact: true })
      .click();
    await view.getByText('done 2').waitFor({ timeout: 60_000 });
    expect(await notice.count()).toBe(0);
    const journal = await h.services.journal.search({}, 0, 10);
    expect(journal.rows.map((r) => [r.amount, r.status, r.operator]).sort()).toEqual([
      ['1.00', 'approved', 'ann'],
      ['5.00', 'approved', 'ann'],
    ]);
  }, 90_000);
});
