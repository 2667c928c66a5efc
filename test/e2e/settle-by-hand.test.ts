// Settling a journal entry by hand, in the browser through the real bridge and services: a
// refund whose answer was lost (written by a process that died after sending) is still owed the
// gateway's final word; a person who learned the outcome elsewhere settles it from the entry's
// detail view, with a reason, after a second deliberate click, and the journal keeps who and why.
// An entry already final offers no such thing.

import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../../main/store/sqlite/database';
import { Journal } from '../../main/store/sqlite/journal';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';

let h: Harness;
const lost = 'pd-lostanswer-0001';

beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no sandbox profile');
  // Another process's refund: sent, then its answer lost (a cut connection), then it died.
  const db = openDatabase(join(h.dataDir, 'paydesk.sqlite'));
  const journal = new Journal(db);
  journal.begin({
    clientOrderId: lost,
    profileId: sandbox.id,
    operator: 'maria',
    operation: 'RETURN',
    action: 'partial-refund',
    targetOrderId: '9000001',
    amountMinor: 1250n,
    currency: 'EUR',
    reason: 'Damaged',
    fields: { client_orderid: lost, orderid: '9000001', amount: '12.50', currency: 'EUR' },
  });
  journal.markUnknown(lost, { code: 'TRANSPORT', message: 'The connection was cut.' });
  db.close();
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

describe('Settle by hand', () => {
  it('settles a lost refund as not received, with a reason, after a second deliberate click', async () => {
    const { page } = h;
    await h.open('#/journal');
    await page.getByRole('button', { name: `Details of Partial refund ${lost}` }).click();
    const dialog = page.getByRole('dialog', { name: `Journal entry Partial refund ${lost}` });
    await dialog.getByText('Answer lost: being checked with the gateway').first().waitFor();
    await dialog.getByRole('button', { name: 'Settle by hand…' }).click();

    const form = dialog.getByRole('form', { name: 'Settle by hand' });
    // Nothing can be settled without an outcome and a reason.
    expect(await form.getByRole('button', { name: 'Review…' }).isDisabled()).toBe(true);
    await form.getByLabel('Not received: the gateway never processed it').check();
    expect(await form.getByRole('button', { name: 'Review…' }).isDisabled()).toBe(true);
    await form.getByLabel('Your reason (who told you, when)').fill('Gateway support, ticket 4411');
    await form.getByRole('button', { name: 'Review…' }).click();
    // The consequence is said before the second click.
    expect(await form.getByRole('alert').innerText()).toMatch(/may send the same money again/);
    await form.getByRole('button', { name: 'Yes, settle as not received' }).click();
    // The detail, read again, says who settled it and why; the form is gone.
    await dialog.getByText('by e2e-clerk: Gateway support, ticket 4411', { exact: true }).waitFor();
    expect(await dialog.getByRole('form', { name: 'Settle by hand' }).count()).toBe(0);

    const entry = await h.services.journal.entry(lost);
    expect(entry.row.state).toBe('refused');
    expect(entry.settledBy).toBe('e2e-clerk');
    expect(entry.settleReason).toBe('Gateway support, ticket 4411');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Opened again: who settled it and why, and no second settling.
    await page.getByRole('button', { name: `Details of Partial refund ${lost}` }).click();
    await dialog.getByText('by e2e-clerk: Gateway support, ticket 4411', { exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Settle by hand…' }).count()).toBe(0);
  });

  it('refuses a reason that holds a card number, saying why', async () => {
    const result = (await h.page.evaluate(
      (clientOrderId) =>
        (
          window as unknown as {
            paydesk: { journal: { settleByHand(r: unknown): Promise<unknown> } };
          }
        ).paydesk.journal.settleByHand({
          clientOrderId,
          outcome: 'approved',
          reason: 'card 4111 1111 1111 1111',
        }),
      lost,
    )) as { ok: boolean; error?: { message: string } };
    expect(result.ok).toBe(false);
    expect(result.error?.message).toMatch(/card/i);
  });
});
