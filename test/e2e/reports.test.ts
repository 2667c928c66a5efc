// Reports -> Daily close in the browser, through the real bridge, services and SQLite: a
// fortnight of entries (shots/reports.ts) shown as totals per currency, per day and by
// operator, whose figures are checked against sums made here from the same list, with the
// waiting entries said as such ("at least"), the three charts drawn, and the CSV saved.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { currencyExponent, groupThousands, minorToText } from '../../common/money';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import { writeReportSeed, type ReportSeed } from './shots/reports';

let h: Harness;
let seed: ReportSeed[];
let zoneBefore: string | undefined;
beforeAll(async () => {
  // The seed's times are read as days in UTC here: the desk's zone is the process's.
  zoneBefore = process.env.TZ;
  process.env.TZ = 'UTC';
  h = await startHarness();
  h.page.setDefaultTimeout(10_000);
  seed = await writeReportSeed(h);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeSharedBrowser();
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const shown = (minor: bigint, currency: string) =>
  `${groupThousands(minorToText(minor, currencyExponent(currency)))} ${currency}`;

async function showMarch(h: Harness) {
  const { page } = h;
  await h.open('#/reports');
  const form = page.getByRole('form', { name: 'Report range' });
  await form.getByLabel('From').fill('2026-03-01');
  await form.getByLabel('To').fill('2026-03-31');
  await form.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('status').filter({ hasText: '2026-03-01 to 2026-03-31' }).waitFor();
}

describe('Reports screen', () => {
  it('loads its code and chart.js only when it opens', async () => {
    const { page } = h;
    const loaded: string[] = [];
    const onRequest = (request: { url(): string }) => loaded.push(request.url());
    page.on('request', onRequest);
    try {
      await h.open('#/lookup');
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      expect(loaded.filter((u) => /ReportsScreen|draw-chart/.test(u))).toEqual([]);
      await page.getByRole('link', { name: /^Reports/ }).click();
      const form = page.getByRole('form', { name: 'Report range' });
      await form.getByLabel('From').fill('2026-03-01');
      await form.getByLabel('To').fill('2026-03-31');
      await form.getByRole('button', { name: 'Show' }).click();
      await page
        .getByRole('figure', { name: /Failures per day/ })
        .locator('canvas')
        .waitFor();
      await expect.poll(() => loaded.some((u) => /draw-chart-[^/]*\.js$/.test(u))).toBe(true);
      expect(loaded.some((u) => /ReportsScreen-[^/]*\.js$/.test(u))).toBe(true);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('shows what was approved per currency, failures apart, and the waiting as "at least"', async () => {
    const { page } = h;
    await showMarch(h);
    const waiting = seed.filter((e) => e.outcome === 'waiting').length;
    expect(waiting).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByRole('note').filter({ hasText: 'wait' }).locator('strong').innerText())
      .toBe(`${waiting} operations still wait for the gateway’s final word.`);

    for (const currency of ['EUR', 'JPY']) {
      const table = page.getByRole('table', { name: `Totals in ${currency}` });
      const of = (kinds: string[], outcome: ReportSeed['outcome']) =>
        seed.filter(
          (e) => kinds.includes(e.action) && e.currency === currency && e.outcome === outcome,
        );
      for (const [label, kinds] of [
        ['Captured', ['capture']],
        ['Refunded', ['refund', 'partial-refund']],
        ['Rebilled', ['rebill']],
        ['Paid out', ['payout']],
      ] as const) {
        const approved = of([...kinds], 'approved');
        if (approved.length === 0) continue;
        const sum = approved.reduce((s, e) => s + e.amountMinor!, 0n);
        const failed = of([...kinds], 'declined').length + of([...kinds], 'refused').length;
        const pending = of([...kinds], 'waiting').length;
        const row = table.getByRole('row', { name: new RegExp(`^${label}`) });
        const cells = await row.getByRole('cell').allInnerTexts();
        const atLeast = pending > 0 ? 'at least ' : '';
        expect.soft({ currency, label, cells: cells.slice(0, 3) }).toEqual({
          currency,
          label,
          cells: [
            `${atLeast}${approved.length}`,
            `${atLeast}${shown(sum, currency)}`,
            failed ? String(failed) : '–',
          ],
        });
        expect.soft(cells[4]).toBe(pending ? String(pending) : '–');
      }
    }
    // Voids of a whole order carry no amount: counted under a table of their own, never summed.
    const noAmount = seed.filter(
      (e) => e.currency === undefined && e.outcome === 'approved',
    ).length;
    const voids = page.getByRole('table', { name: 'Totals in Without an amount' });
    expect(
      await voids
        .getByRole('row', { name: /^Voided/ })
        .getByRole('cell')
        .first()
        .innerText(),
    ).toBe(String(noAmount));

    // By operator: each clerk's approved EUR captures (the currency is the row's own column).
    const byOperator = page.getByRole('table', { name: 'By operator' });
    for (const operator of ['ann', 'bob', 'cem']) {
      const mine = seed.filter(
        (e) =>
          e.operator === operator &&
          e.action === 'capture' &&
          e.currency === 'EUR' &&
          e.outcome === 'approved',
      );
      const sum = mine.reduce((s, e) => s + e.amountMinor!, 0n);
      const row = byOperator.getByRole('row', { name: new RegExp(`^${operator} EUR`) });
      expect
        .soft(await row.getByRole('cell').nth(1).innerText())
        .toMatch(
          new RegExp(
            `${mine.length} · ${groupThousands(minorToText(sum, 2)).replace('.', '\\.')}$`,
          ),
        );
    }
  });

  it('draws the three charts, each with something on it', async () => {
    const { page } = h;
    await showMarch(h);
    for (const name of [
      /Approved volume per day, EUR/,
      /Refunds against captures, EUR/,
      /Failures per day/,
    ]) {
      const canvas = page.getByRole('figure', { name }).locator('canvas');
      await canvas.waitFor();
      // A drawn chart has pixels of its bars' colours; a blank canvas is all transparent.
      await expect
        .poll(() =>
          canvas.evaluate((el: HTMLCanvasElement) => {
            const ctx = el.getContext('2d')!;
            const { data } = ctx.getImageData(0, 0, el.width, el.height);
            let painted = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
            return painted;
          }),
        )
        .toBeGreaterThan(1_000);
    }
    // JPY's charts instead, once chosen: never EUR and JPY in one bar.
    await page.getByLabel('Currency', { exact: true }).selectOption('JPY');
    await page.getByRole('figure', { name: /Approved volume per day, JPY/ }).waitFor();
  });

  it('saves the summary as CSV with its totals', async () => {
    const { page } = h;
    await showMarch(h);
    await page.getByRole('button', { name: 'Save as CSV…' }).click();
    await page.getByText(/^Saved to /).waitFor();
    const file = h.saved.find((f) => f.name === 'paydesk-report-2026-03-01-to-2026-03-31.csv');
    expect(file).toBeDefined();
    const captured = seed.filter(
      (e) => e.action === 'capture' && e.currency === 'EUR' && e.outcome === 'approved',
    );
    const sum = captured.reduce((s, e) => s + e.amountMinor!, 0n);
    expect(file!.content).toContain(
      `total,EUR,Captured,,approved,${captured.length},${minorToText(sum, 2)},${sum},0\r\n`,
    );
  });
});
