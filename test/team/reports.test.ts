// The daily close on both stores: the same fixture of entries (captures, refunds, voids, holds
// cancelled, payouts, rebills, and operations the report does not count, in three currencies,
// approved, declined, refused, settled by hand and still waiting, over two profiles) summed by
// the desk's SQLite and by a team's PostgreSQL, each compared with sums computed here in plain
// JavaScript from the fixture itself. The days are Berlin's across the start of summer time
// (29 March 2026 has 23 hours), with entries on each side of every midnight, so a store that
// bucketed by UTC date, or by a fixed offset, puts them in the wrong day.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JournalPort, ReportLine } from '../../main/store/journal/port';
import { ReportService } from '../../main/services/reports/reports';
import { reportDays } from '../../main/services/reports/days';
import { ServiceError } from '../../main/services/errors';
import { journalAdapters, OPERATOR, type PortHarness } from '../support/journal-ports';

const adapters = journalAdapters('the daily close tests on PostgreSQL');
const ZONE = 'Europe/Berlin';
const SHOP = 'shop-a';
const OTHER = 'shop-b';

type Settled = 'approved' | 'declined' | 'refused' | 'unknown' | 'sending' | 'by-hand';

interface FixtureEntry {
  id: string;
  profileId: string;
  operator: string;
  action: string;
  operation: string;
  amountMinor?: bigint;
  currency?: string;
  settled: Settled;
  at: string;
}

const OPERATION_OF: Record<string, string> = {
  capture: 'CAPTURE',
  'partial-capture': 'CAPTURE',
  refund: 'RETURN',
  'partial-refund': 'RETURN',
  void: 'VOID',
  'cancel-hold': 'VOID',
  payout: 'PAYOUT',
  'payout-pay': 'PAYOUT_V4_PAY',
  'payout-check': 'PAYOUT_V4_CHECK',
  rebill: 'REBILL',
  'save-card': 'CARDREF',
  'payment-link': 'SALEFORM',
};

/** A small deterministic generator, so a failure names the same entries every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/** Times around Berlin's midnights of 27 March to 1 April 2026 (UTC+1, then UTC+2 from the 29th). */
const EDGES = [
  '2026-03-26T22:59:59.999Z', // 26th, 23:59:59.999 in Berlin: outside the range
  '2026-03-26T23:00:00.000Z', // 27th, 00:00
  '2026-03-27T22:59:59.999Z', // 27th, the last millisecond
  '2026-03-27T23:00:00.000Z', // 28th, 00:00 (still UTC+1)
  '2026-03-28T22:59:59.999Z', // 28th
  '2026-03-28T23:00:00.000Z', // 29th, 00:00 (summer time starts at 02:00 that night)
  '2026-03-29T21:59:59.999Z', // 29th, 23:59:59.999 (UTC+2): the 23-hour day's last instant
  '2026-03-29T22:00:00.000Z', // 30th, 00:00
  '2026-03-31T21:59:59.999Z', // 31st, the last instant of the range
  '2026-03-31T22:00:00.000Z', // 1 April: outside the range
];

function makeFixture(): FixtureEntry[] {
  const next = random(20_260_329);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const actions = Object.keys(OPERATION_OF);
  const settles: Settled[] = [
    'approved',
    'approved',
    'approved',
    'declined',
    'refused',
    'unknown',
    'sending',
    'by-hand',
  ];
  const start = Date.parse('2026-03-26T20:00:00.000Z');
  const span = Date.parse('2026-04-01T04:00:00.000Z') - start;
  const entries: FixtureEntry[] = [];
  for (let i = 0; i < 240; i++) {
    const action = pick(actions);
    // A void of a whole order may carry no amount: counted, never summed.
    const noAmount = (action === 'void' || action === 'cancel-hold') && next() < 0.4;
    const currency = pick(['EUR', 'EUR', 'JPY', 'KWD']);
    entries.push({
      id: `rp-${i}`,
      profileId: next() < 0.75 ? SHOP : OTHER,
      operator: pick(['ann', 'bob']),
      action,
      operation: OPERATION_OF[action]!,
      ...(noAmount ? {} : { amountMinor: BigInt(1 + Math.floor(next() * 5_000_000)), currency }),
      settled: pick(settles),
      at: i < EDGES.length ? EDGES[i]! : new Date(start + Math.floor(next() * span)).toISOString(),
    });
  }
  return entries;
}

const FIXTURE = makeFixture();

async function write(port: JournalPort, e: FixtureEntry): Promise<void> {
  await port.begin({
    clientOrderId: e.id,
    profileId: e.profileId,
    operator: e.operator,
    operation: e.operation,
    action: e.action,
    targetOrderId: `9${e.id.slice(3)}`,
    ...(e.amountMinor !== undefined ? { amountMinor: e.amountMinor, currency: e.currency! } : {}),
    fields: {},
  });
  const orderId = `o-${e.id}`;
  if (e.settled === 'approved') await port.finish(e.id, { status: 'approved', orderId });
  if (e.settled === 'declined') await port.finish(e.id, { status: 'declined', orderId });
  if (e.settled === 'refused') await port.refuse(e.id, { code: 'E1', message: 'Refused' });
  if (e.settled === 'unknown' || e.settled === 'by-hand')
    await port.markUnknown(e.id, { message: 'No answer' });
  if (e.settled === 'by-hand')
    await port.settleByHand(e.id, {
      outcome: 'approved',
      reason: 'Seen in the gateway',
      by: OPERATOR,
    });
}

// ---- the sums, computed here from the fixture, without SQL ---------------------------------

const KIND: Record<string, string | undefined> = {
  capture: 'capture',
  'partial-capture': 'capture',
  refund: 'refund',
  'partial-refund': 'refund',
  void: 'void',
  'cancel-hold': 'cancel-hold',
  payout: 'payout',
  'payout-pay': 'payout',
  rebill: 'rebill',
};
const OUTCOME: Record<Settled, string> = {
  approved: 'approved',
  'by-hand': 'approved',
  declined: 'failed',
  refused: 'failed',
  unknown: 'pending',
  sending: 'pending',
};
const berlinDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

function expected(
  options: { from: string; to: string; profileId?: string },
  operatorOf: (e: FixtureEntry) => string,
): string[] {
  const groups = new Map<string, { count: number; sum: bigint; without: number }>();
  for (const e of FIXTURE) {
    const kind = KIND[e.action];
    const day = berlinDay.format(new Date(e.at));
    if (!kind || day < options.from || day > options.to) continue;
    if (options.profileId && e.profileId !== options.profileId) continue;
    const key = [day, e.currency ?? '-', kind, operatorOf(e), OUTCOME[e.settled]].join(' ');
    const g = groups.get(key) ?? { count: 0, sum: 0n, without: 0 };
    g.count += 1;
    g.sum += e.amountMinor ?? 0n;
    g.without += e.amountMinor === undefined ? 1 : 0;
    groups.set(key, g);
  }
  return [...groups].map(([k, g]) => `${k} ${g.count} ${g.sum} ${g.without}`).sort();
}

const said = (lines: ReportLine[]) =>
  lines
    .map((l) =>
      [
        l.day,
        l.currency ?? '-',
        l.kind,
        l.operator,
        l.outcome,
        l.count,
        l.amountMinor,
        l.withoutAmount,
      ].join(' '),
    )
    .sort();

describe.each(adapters)('the daily close on $name', ({ name, open, skip }) => {
  let harness: PortHarness;
  let reports: ReportService;
  let zoneBefore: string | undefined;
  // On PostgreSQL the operator is the login that wrote the entry, whatever the desk says.
  const operatorOf = (e: FixtureEntry) => (name === 'PostgreSQL' ? OPERATOR : e.operator);

  beforeAll(async () => {
    if (skip) return;
    zoneBefore = process.env.TZ;
    process.env.TZ = ZONE;
    harness = await open();
    await harness.addProfile(SHOP);
    await harness.addProfile(OTHER);
    for (const e of FIXTURE) {
      await write(harness.port, e);
      await harness.setCreatedAt(e.id, e.at);
    }
    reports = new ReportService(() => harness.port);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    if (zoneBefore === undefined) delete process.env.TZ;
    else process.env.TZ = zoneBefore;
  });

  it.skipIf(skip)(
    'sums each day, currency, operation, operator and outcome as the fixture does',
    async () => {
      const range = { from: '2026-03-27', to: '2026-03-31' };
      const lines = await reports.lines(range);
      expect(said(lines)).toEqual(expected(range, operatorOf));
      // The fixture reaches every kind, outcome and day, and three currencies, so none is skipped.
      expect(new Set(lines.map((l) => l.kind)).size).toBe(6);
      expect(new Set(lines.map((l) => l.outcome)).size).toBe(3);
      expect(new Set(lines.map((l) => l.day))).toEqual(
        new Set(['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31']),
      );
      expect(new Set(lines.map((l) => l.currency))).toEqual(new Set(['EUR', 'JPY', 'KWD', null]));
    },
  );

  it.skipIf(skip)(
    'puts an entry in the Berlin day it was written on, across summer time',
    async () => {
      const day = async (d: string) =>
        (await reports.lines({ from: d, to: d })).reduce((n, l) => n + l.count, 0);
      const counted = (d: string) =>
        FIXTURE.filter((e) => KIND[e.action] && berlinDay.format(new Date(e.at)) === d).length;
      for (const d of [
        '2026-03-26',
        '2026-03-27',
        '2026-03-28',
        '2026-03-29',
        '2026-03-30',
        '2026-04-01',
      ]) {
        expect.soft({ d, n: await day(d) }).toEqual({ d, n: counted(d) });
      }
      // The edges themselves: 23:59:59.999 and 00:00 in Berlin on each side of the 23-hour day.
      const only = (at: string) => FIXTURE.find((e) => e.at === at)!;
      const lineOf = async (at: string, d: string) => {
        const e = only(at);
        const lines = await reports.lines({ from: d, to: d });
        return KIND[e.action] === undefined || lines.some((l) => l.operator === operatorOf(e));
      };
      expect(await lineOf('2026-03-28T23:00:00.000Z', '2026-03-29')).toBe(true);
      expect(await lineOf('2026-03-29T21:59:59.999Z', '2026-03-29')).toBe(true);
      expect(await lineOf('2026-03-29T22:00:00.000Z', '2026-03-30')).toBe(true);
    },
  );

  it.skipIf(skip)('one profile: only its entries', async () => {
    const range = { from: '2026-03-27', to: '2026-03-31', profileId: OTHER };
    expect(said(await reports.lines(range))).toEqual(expected(range, operatorOf));
  });

  it.skipIf(skip)(
    'writes the same sums as CSV, with a total per currency and never across currencies',
    async () => {
      const range = { from: '2026-03-27', to: '2026-03-31' };
      const csv = await reports.csv(range);
      const records = csv
        .trimEnd()
        .split('\r\n')
        .map((l) => l.split(','));
      expect(records[0]).toEqual([
        'day',
        'currency',
        'operation',
        'operator',
        'outcome',
        'count',
        'amount',
        'amount_minor',
        'entries_without_amount',
      ]);
      const totals = records.filter((r) => r[0] === 'total');
      const total = (currency: string, kind: string) => {
        const row = totals.find(
          (r) => r[1] === currency && r[2] === 'Captured' && r[4] === 'approved',
        );
        expect(kind).toBe('capture');
        return row;
      };
      for (const currency of ['EUR', 'JPY', 'KWD']) {
        const approved = FIXTURE.filter((e) => {
          const d = berlinDay.format(new Date(e.at));
          return (
            KIND[e.action] === 'capture' &&
            e.currency === currency &&
            OUTCOME[e.settled] === 'approved' &&
            d >= range.from &&
            d <= range.to
          );
        });
        const sum = approved.reduce((s, e) => s + e.amountMinor!, 0n);
        const row = total(currency, 'capture');
        expect(row?.[5]).toBe(String(approved.length));
        expect(row?.[7]).toBe(sum.toString());
      }
      // JPY has no decimals, KWD three: each amount is written in its own currency's shape.
      expect(totals.find((r) => r[1] === 'JPY')?.[6]).toMatch(/^\d+$/);
      expect(totals.find((r) => r[1] === 'KWD')?.[6]).toMatch(/^\d+\.\d{3}$/);
    },
  );
});

describe('the days of a report', () => {
  it('gives Berlin its 23-hour day at the start of summer time, and refuses what is not a range', () => {
    const before = process.env.TZ;
    process.env.TZ = ZONE;
    try {
      const days = reportDays('2026-03-28', '2026-03-30');
      expect(days).toEqual([
        { day: '2026-03-28', from: '2026-03-27T23:00:00.000Z', to: '2026-03-28T23:00:00.000Z' },
        { day: '2026-03-29', from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' },
        { day: '2026-03-30', from: '2026-03-29T22:00:00.000Z', to: '2026-03-30T22:00:00.000Z' },
      ]);
      const refusal = (from: string, to: string) => {
        try {
          reportDays(from, to);
        } catch (error) {
          expect(error).toBeInstanceOf(ServiceError);
          return (error as Error).message;
        }
        return 'accepted';
      };
      expect(refusal('2026-02-30', '2026-03-01')).toBe(
        'From (2026-02-30) is not a day: write it as 2026-03-14.',
      );
      expect(refusal('2026-03-02', '2026-03-01')).toBe(
        'From (2026-03-02) is after To (2026-03-01): swap them.',
      );
      expect(refusal('2025-01-01', '2026-03-01')).toBe(
        'A report covers at most 367 days; this range has 425. Choose a shorter one.',
      );
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
