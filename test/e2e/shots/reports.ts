// Reports -> Daily close from a fixed journal: the entries a fortnight of a sandbox desk could
// have written (captures, refunds, voids, payouts, rebills, by three clerks, in EUR and JPY,
// a few declined or refused, two still waiting for the gateway), dated in the first half of
// March 2026, so the screenshots' fixed clock (14 March) shows them in "this month". The browser
// test reads the same entries and checks the screen against sums it makes from this list.

import { join } from 'node:path';

import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

export interface ReportSeed {
  id: string;
  operator: string;
  action: string;
  operation: string;
  amountMinor?: bigint;
  currency?: string;
  outcome: 'approved' | 'declined' | 'refused' | 'waiting';
  at: string;
}

const OPERATION: Record<string, string> = {
  capture: 'CAPTURE',
  refund: 'RETURN',
  'partial-refund': 'RETURN',
  void: 'VOID',
  payout: 'PAYOUT',
  rebill: 'REBILL',
};

/** The fortnight's entries: a fixed list, the same on every run. */
export function reportSeed(): ReportSeed[] {
  const seed: ReportSeed[] = [];
  const operators = ['ann', 'bob', 'cem'];
  for (let day = 2; day <= 14; day++) {
    const date = `2026-03-${String(day).padStart(2, '0')}`;
    const weekend = day === 7 || day === 8;
    const n = weekend ? 2 : 4 + (day % 3);
    for (let i = 0; i < n; i++) {
      const k = day * 10 + i;
      const action = [
        'capture',
        'capture',
        'refund',
        'capture',
        'partial-refund',
        'void',
        'rebill',
        'payout',
      ][k % 8]!;
      const jpy = k % 5 === 0;
      const outcome = k % 11 === 0 ? 'declined' : k % 13 === 0 ? 'refused' : 'approved';
      seed.push({
        id: `rep-${date}-${i}`,
        operator: operators[k % 3]!,
        action,
        operation: OPERATION[action]!,
        ...(action === 'void' && k % 3 === 0
          ? {}
          : {
              amountMinor: jpy
                ? BigInt(1_000 + ((k * 731) % 20_000))
                : BigInt(1_500 + ((k * 7_919) % 90_000)),
              currency: jpy ? 'JPY' : 'EUR',
            }),
        outcome: day === 14 && i >= n - 2 ? 'waiting' : outcome,
        at: `${date}T${String(8 + i * 2).padStart(2, '0')}:15:00.000Z`,
      });
    }
  }
  return seed;
}

/** Writes the seed into the harness's journal on its Sandbox profile, each at its own time. */
export async function writeReportSeed(h: Harness): Promise<ReportSeed[]> {
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('The harness has no built-in Sandbox profile.');
  const port = h.services.port;
  const seed = reportSeed();
  for (const e of seed) {
    await port.begin({
      clientOrderId: e.id,
      profileId: sandbox.id,
      operator: e.operator,
      operation: e.operation,
      action: e.action,
      targetOrderId: `77${e.id.replace(/\D/g, '')}`,
      ...(e.amountMinor !== undefined ? { amountMinor: e.amountMinor, currency: e.currency! } : {}),
      fields: {},
    });
    const orderId = `88${e.id.replace(/\D/g, '')}`;
    if (e.outcome === 'approved') await port.finish(e.id, { status: 'approved', orderId });
    if (e.outcome === 'declined') await port.finish(e.id, { status: 'declined', orderId });
    if (e.outcome === 'refused') await port.refuse(e.id, { code: 'E1', message: 'Refused' });
    if (e.outcome === 'waiting') await port.markUnknown(e.id, { message: 'No answer yet' });
    h.services.db
      .prepare('UPDATE journal SET created_at = ? WHERE client_orderid = ?')
      .run(e.at, e.id);
  }
  return seed;
}

export async function shootReports(h: Harness, dir: string): Promise<string[]> {
  await writeReportSeed(h);
  const { page } = h;
  await h.open('#/reports');
  await page.getByRole('heading', { name: 'Totals' }).waitFor();
  await page.getByRole('figure', { name: /Failures per day/ }).waitFor();
  const file = join(dir, 'reports.png');
  await stableScreenshot(page, { path: file, fullPage: true });
  return [file];
}
