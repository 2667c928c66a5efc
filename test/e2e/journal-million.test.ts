// A journal of 1,000,000 entries in the browser: 40 px rows would make the list 40,000,038 px
// tall, past Chromium's cap on an element's height (33,554,432 px), and the oldest ~161,000
// entries could not be reached. Every entry must be: by End, by dragging the scrollbar to its
// end, by "Go to date"; the wheel and the arrow keys still move by rows. The fixture is written
// straight into SQLite by one INSERT ... SELECT (a million rows through the app would take
// minutes); entry i is one minute after entry i - 1.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { BULK_START, bulkRef, fillBulkJournal } from '../support/bulk-journal';

const BULK = 1_000_000;
const START = BULK_START;
const refOf = bulkRef;
/** aria-rowindex of entry i: newest first, after the header's 1. */
const rowIndexOf = (i: number) => String(BULK - 1 - i + 2);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.page.setDefaultTimeout(20_000);
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no sandbox profile');
  fillBulkJournal(h.services.db, sandbox.id, BULK);
}, 600_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
});

const region = () => h.page.getByRole('region', { name: 'Journal entries' });
const row = (i: number) => h.page.getByRole('row').filter({ hasText: refOf(i) });

/** The row's top, in px below the header's bottom (0: the first row in view). */
async function topOf(i: number): Promise<number> {
  const head = h.page.locator('[role=row][aria-rowindex="1"]');
  const [top, box] = await Promise.all([head.boundingBox(), row(i).boundingBox()]);
  if (!top || !box) throw new Error(`${refOf(i)} is not laid out`);
  return Math.round(box.y - (top.y + top.height));
}

describe('a journal of 1,000,000 entries', () => {
  it('opens with the newest, and End reaches the oldest', async () => {
    const { page } = h;
    await h.open('#/journal');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'entries' }).innerText(), {
        timeout: 60_000,
      })
      .toBe('1,000,000 entries, newest first');
    await row(BULK - 1).waitFor();
    await region().focus();
    await page.keyboard.press('End');
    await row(0).waitFor();
    expect(await row(0).getAttribute('aria-rowindex')).toBe(rowIndexOf(0));
    expect(await page.getByRole('row').count()).toBeLessThan(200);
    // The last row ends at the region's bottom edge, fully in view.
    const r = await region().boundingBox();
    const last = await row(0).boundingBox();
    expect(Math.abs(last!.y + last!.height - (r!.y + r!.height))).toBeLessThanOrEqual(2);

    // One row up, one row at a time, at this scale too.
    const bottomFirst = await topOf(1);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => topOf(1)).toBe(bottomFirst + 40);
    await page.keyboard.press('Home');
    await row(BULK - 1).waitFor();
    expect(await topOf(BULK - 1)).toBe(0);
  });

  it('reaches the oldest by dragging the scrollbar to its end, and the middle by its middle', async () => {
    const { page } = h;
    const el = await region().elementHandle();
    await el.evaluate((e) => (e.scrollTop = e.scrollHeight));
    await row(0).waitFor();
    expect(await row(0).getAttribute('aria-rowindex')).toBe(rowIndexOf(0));

    await el.evaluate((e) => (e.scrollTop = (e.scrollHeight - e.clientHeight) / 2));
    // Half-way through the list: about entry 500,000.
    await expect
      .poll(async () => {
        const index = await page.getByRole('row').nth(5).getAttribute('aria-rowindex');
        return Math.abs(Number(index) - BULK / 2) < 100;
      })
      .toBe(true);

    await el.evaluate((e) => (e.scrollTop = 0));
    await row(BULK - 1).waitFor();
  });

  it('scrolls by the wheel a distance of rows, not of the scaled scrollbar', async () => {
    const { page } = h;
    const box = await region().boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await page.mouse.wheel(0, 400);
    // 400 px are 10 rows: the entry ten below the newest now comes first.
    await expect.poll(() => topOf(BULK - 11)).toBe(0);
  });

  it('goes to a date: the newest entry of that day comes first', async () => {
    const { page } = h;
    const day = '2025-03-15';
    const nextMidnight = new Date(`${day}T00:00:00`);
    nextMidnight.setDate(nextMidnight.getDate() + 1);
    const newest = Math.ceil((nextMidnight.getTime() - START) / 60_000) - 1;
    const form = page.getByRole('form', { name: 'Go to date' });
    await form.getByLabel('Go to date').fill(day);
    await form.getByRole('button', { name: 'Go' }).click();
    await row(newest).waitFor();
    expect(await row(newest).getAttribute('aria-rowindex')).toBe(rowIndexOf(newest));
    expect(await topOf(newest)).toBe(0);
    // The next newer entry is above it, out of view under the header.
    expect(await topOf(newest + 1)).toBe(-40);

    // A day before the first entry: the oldest, said so.
    await form.getByLabel('Go to date').fill('2023-06-01');
    await form.getByRole('button', { name: 'Go' }).click();
    await row(0).waitFor();
    await form.getByText('No entries on or before that day: showing the oldest.').waitFor();
  });
});
