// A damaged database: Paydesk still opens, read-only, and a banner says what is wrong, where the
// file is and how to restore it. The file itself is left exactly as it was. A database it may
// not write (here one from a newer Paydesk) opens read-only on a copy with its profiles, keys and
// batches: every fenced screen greys what would change something and keeps what only reads.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import Database from 'better-sqlite3';

import { MIGRATIONS } from '../../main/store/sqlite/migrations';
import { CARD_PAYOUT, PHONE_ORDER_LINK } from '../support/samples';
import { closeSharedBrowser, startHarness } from '../harness/harness';
import { FENCE_STATES, fenceProblems, seedDesk, walkFence, type Seeded } from './shots/fence';

afterAll(async () => {
  await closeSharedBrowser();
});

it('opens on a damaged database with a banner saying what is wrong and how to restore it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-e2e-damaged-'));
  const file = join(dataDir, 'paydesk.sqlite');
  writeFileSync(file, Buffer.concat([Buffer.from('NOT A DATABASE!!'), Buffer.alloc(8192, 7)]));
  const before = createHash('sha256').update(readFileSync(file)).digest('hex');
  const h = await startHarness({ dataDir });
  try {
    await h.open('#/lookup');
    const banner = h.page
      .getByRole('alert')
      .filter({ hasText: 'Paydesk is read-only: its database cannot be written.' });
    await expect.poll(() => banner.count()).toBe(1);
    const text = await banner.innerText();
    expect(text).toContain(file);
    expect(text).toMatch(/is damaged/);
    expect(text).toMatch(/quit Paydesk, move/);
    expect(text).toMatch(/backup/);
    expect(text).toMatch(/refund and cancel are refused/);
    // The rest of the app is there to read.
    await expect
      .poll(() => h.page.getByRole('navigation', { name: 'Screens' }).isVisible())
      .toBe(true);
    // The action screens grey their controls, saying why in one line.
    await h.open('#/payouts');
    await h.page
      .getByRole('note')
      .filter({
        hasText:
          'Paydesk is read-only (its database cannot be written): nothing is sent or changed.',
      })
      .waitFor();
    // (The damaged file's profiles could not be read, so there is no form to grey: the next
    // test has a database with its profiles.) Nothing that changes anything is usable.
    const payouts = FENCE_STATES.find((s) => s.name === 'payouts');
    expect(await fenceProblems(h.page, payouts!, true, false)).toEqual([]);
    await h.open('#/lookup');
    await banner.waitFor();
    const shot = await h.page.screenshot({
      path: join(tmpdir(), 'paydesk-read-only-banner.png'),
      caret: 'hide',
      animations: 'disabled',
    });
    expect(shot.length).toBeGreaterThan(1000);
  } finally {
    await h.close();
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('a database it may not write: every changing control greyed, reading, copying and saving still there', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-e2e-newer-'));
  const file = join(dataDir, 'paydesk.sqlite');
  // A desk with its Sandbox, a key and its batches (an earlier one, one loaded, one paused)...
  const first = await startHarness({ dataDir });
  const secrets = first.secrets;
  let seeded: Seeded;
  try {
    const [profile] = await first.services.profiles.list();
    seeded = await seedDesk(first);
    // ...a payout checked and waiting to be paid, and a payment link waiting for the customer.
    const checked = first.services.orders.openAction().clientOrderId;
    await first.services.payouts.check({
      profileId: profile!.id,
      clientOrderId: checked,
      ...CARD_PAYOUT,
    });
    await first.services.orders.settled(checked);
    await first.services.payLinks.create({
      profileId: profile!.id,
      clientOrderId: first.services.orders.openAction().clientOrderId,
      ...PHONE_ORDER_LINK,
    });
  } finally {
    await first.close();
  }
  // ...whose database a newer Paydesk has since written: this one may read it, not write it.
  const db = new Database(file);
  db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
  db.close();
  const h = await startHarness({ dataDir, secrets });
  try {
    await h.open('#/lookup');
    await h.page.getByRole('alert').filter({ hasText: 'Paydesk is read-only' }).waitFor();
    // Every state but an order looked up (the built-in sandbox does not start read-only); the
    // checked payout's Pay… and the open link's Copy and QR are on their lists.
    const readOnly =
      'Paydesk is read-only (its database cannot be written): nothing is sent or changed.';
    const problems = await walkFence(
      h,
      seeded,
      { money: readOnly, admin: readOnly },
      FENCE_STATES.filter((s) => !s.gateway),
      {
        'payouts to pay': 'Waiting to be paid',
        'payment links': 'Open, waiting for the customer',
      },
    );
    expect(problems).toEqual({});
    // The batch's results are saved from the read-only copy.
    await h.open('#/batch');
    await h.page.getByRole('button', { name: `Open batch ${seeded.earlierBatch}` }).click();
    await h.page.getByRole('button', { name: 'Save the result CSV…' }).click();
    await expect.poll(() => h.saved.map((f) => f.name)).toEqual(['returns-october-result.csv']);
  } finally {
    await h.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
