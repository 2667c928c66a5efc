// The Journal screen finds what a clerk searches, on a desk's SQLite and on a team's PostgreSQL
// alike: an amount as written ("14.25", read with each currency's decimals) or a range, the
// card's last four digits, the start of any id, part of an e-mail, with LIKE's and GLOB's
// wildcards taken literally. And the totals of what a filter shows, per currency and action,
// against sums worked out here from the fixture itself (never by the stores' SQL), on screen
// (JournalPort.totals) and as the export's last lines, with each entry's profile by name.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { contentText } from '../../main/files';
import { JournalService } from '../../main/services/journal';
import type { JournalFilter } from '../../main/store/journal/filter';
import {
  JournalError,
  type JournalPort,
  type NewJournalEntry,
} from '../../main/store/journal/port';
import { journalAdapters, OPERATOR, type PortHarness } from '../support/journal-ports';
import { rejection } from '../support/team';

const adapters = journalAdapters('the journal search tests on PostgreSQL');

const SHOP = 'shop-a';
const OTHER = 'shop-b';
/** A profile the entries name but this desk's list of names does not have (removed). */
const GONE = 'gone-4e9028c4-2286';

type Outcome = 'approved' | 'declined' | 'refused' | 'unknown' | 'sending' | 'acknowledged';

interface Fixture {
  id: string;
  entry: Omit<NewJournalEntry, 'operator' | 'fields' | 'clientOrderId'> & {
    fields?: Record<string, string>;
  };
  outcome: Outcome;
  orderId?: string;
}

const e = (id: string, outcome: Outcome, entry: Fixture['entry'], orderId?: string): Fixture => ({
  id,
  entry,
  outcome,
  ...(orderId ? { orderId } : {}),
});

/** The entries both stores get, oldest first. */
const FIXTURE: Fixture[] = [
  e('pd-f01', 'approved', {
    profileId: SHOP,
    operation: 'RETURN',
    action: 'refund',
    targetOrderId: '1003',
    targetClientOrderId: 'demo-sale-1002',
    amountMinor: 1425n,
    currency: 'EUR',
    email: 'Maria.Lopez@example.com',
    cardLastFour: '1111',
  }),
  // 14.250 KWD is the amount 14.25 too (three decimals).
  e('pd-f02', 'approved', {
    profileId: SHOP,
    operation: 'CAPTURE',
    action: 'capture',
    targetOrderId: '100345',
    targetClientOrderId: 'demo-sale-1011',
    amountMinor: 14250n,
    currency: 'KWD',
    email: 'rosamaria@example.org',
  }),
  // 1425 JPY is 1425, never 14.25 (no decimals).
  e('pd-f03', 'declined', {
    profileId: SHOP,
    operation: 'CAPTURE',
    action: 'partial-capture',
    targetOrderId: '21003',
    targetClientOrderId: 'demo-sale-2001',
    amountMinor: 1425n,
    currency: 'JPY',
    email: 'john@example.com',
  }),
  // 142.50 EUR is not 14.25.
  e('pd-f04', 'unknown', {
    profileId: OTHER,
    operation: 'RETURN',
    action: 'partial-refund',
    targetOrderId: '1003',
    targetClientOrderId: 'demo-sale-1002',
    amountMinor: 14250n,
    currency: 'EUR',
    cardLastFour: '1111',
  }),
  // The card number a payout request carries gives the entry its last four.
  e(
    'pd-f05',
    'approved',
    {
      profileId: OTHER,
      operation: 'PAYOUT',
      action: 'payout',
      amountMinor: 1425n,
      currency: 'USD',
      email: 'MARIA@shop.example',
      fields: { 'destination-card-no': '4111 1111 1111 1111' },
    },
    '1003777',
  ),
  e('pd-f06', 'refused', {
    profileId: SHOP,
    operation: 'VOID',
    action: 'void',
    targetOrderId: '5001',
    targetClientOrderId: 'shop*1',
    amountMinor: 999n,
    currency: 'EUR',
    email: 'a_b@example.com',
    cardLastFour: '4242',
  }),
  e('pd-f07', 'sending', {
    profileId: SHOP,
    operation: 'RETURN',
    action: 'refund',
    targetOrderId: '5002',
    targetClientOrderId: 'shopX1',
    amountMinor: 500n,
    currency: 'EUR',
    email: 'axb@example.com',
  }),
  e('pd-f08', 'acknowledged', {
    profileId: GONE,
    operation: 'CAPTURE',
    action: 'capture',
    targetOrderId: '5003',
    targetClientOrderId: 'shop%1',
    amountMinor: 250n,
    currency: 'EUR',
    email: '100%@example.com',
  }),
  // A payment link the gateway made: waiting for its customer, who may have paid meanwhile.
  e('pd-f09', 'acknowledged', {
    profileId: SHOP,
    operation: 'SALEFORM',
    action: 'payment-link',
    amountMinor: 7000n,
    currency: 'EUR',
    email: 'shop_1@example.com',
  }),
  // A saved card: no amount.
  e('pd-f10', 'approved', {
    profileId: SHOP,
    operation: 'CARDREF',
    action: 'save-card',
    fields: { credit_card_number: '5555555555554444' },
  }),
  e('pd-f11', 'approved', {
    profileId: SHOP,
    operation: 'RETURN',
    action: 'partial-refund',
    targetOrderId: '1000001',
    targetClientOrderId: 'demo-sale-1000',
    amountMinor: 300n,
    currency: 'EUR',
  }),
  e('pd-f12', 'approved', {
    profileId: OTHER,
    operation: 'CAPTURE',
    action: 'capture',
    targetOrderId: '1000002',
    amountMinor: 5000n,
    currency: 'JPY',
  }),
];

/** Each search, and the entries it must find, newest first. */
const SEARCHES: [string, JournalFilter, string[]][] = [
  [
    'an amount as written, in every currency it can be',
    { amount: '14.25' },
    ['pd-f05', 'pd-f02', 'pd-f01'],
  ],
  ['an amount written with more zeros', { amount: '14.250' }, ['pd-f05', 'pd-f02', 'pd-f01']],
  ['an amount only a currency without decimals has', { amount: '1425' }, ['pd-f03']],
  ['an amount in one currency', { amount: '14.25', currency: 'kwd' }, ['pd-f02']],
  ['an amount no currency has', { amount: '14.2501' }, []],
  [
    'a range of amounts',
    { amountMin: '3', amountMax: '14.25' },
    ['pd-f11', 'pd-f07', 'pd-f06', 'pd-f05', 'pd-f02', 'pd-f01'],
  ],
  // 3.00 EUR is below 3.005 (3.01 is the least EUR amount at or above it).
  [
    'a range with more decimals than a currency has',
    { amountMin: '3.005', amountMax: '10' },
    ['pd-f07', 'pd-f06'],
  ],
  ['only a smallest amount', { amountMin: '142.50' }, ['pd-f12', 'pd-f04', 'pd-f03']],
  ['only a largest amount', { amountMax: '2.50' }, ['pd-f08']],
  ['the last four digits of the card', { cardLastFour: '1111' }, ['pd-f05', 'pd-f04', 'pd-f01']],
  ['the last four of a card in the request', { cardLastFour: '4444' }, ['pd-f10']],
  ['the start of an orderid', { orderRef: '1003' }, ['pd-f05', 'pd-f04', 'pd-f02', 'pd-f01']],
  ['a whole orderid', { orderRef: '21003' }, ['pd-f03']],
  [
    'the start of a shop order id',
    { orderRef: 'demo-sale-10' },
    ['pd-f11', 'pd-f04', 'pd-f02', 'pd-f01'],
  ],
  ['a whole shop order id', { orderRef: 'demo-sale-1002' }, ['pd-f04', 'pd-f01']],
  ['the start of an action id', { orderRef: 'pd-f1' }, ['pd-f12', 'pd-f11', 'pd-f10']],
  ['part of an e-mail, any case', { email: 'maria' }, ['pd-f05', 'pd-f02', 'pd-f01']],
  ['LIKE: an underscore is an underscore', { email: 'a_b' }, ['pd-f06']],
  ['LIKE: a percent sign is a percent sign', { email: '0%@' }, ['pd-f08']],
  ['LIKE: an underscore in an id', { orderRef: 'shop_' }, []],
  ['LIKE: a percent sign in an id', { orderRef: 'shop%' }, ['pd-f08']],
  ['GLOB: a star in an id', { orderRef: 'shop*' }, ['pd-f06']],
  ['GLOB: a question mark in an id', { orderRef: 'shop?1' }, []],
  // A blank field is no condition: not "has an e-mail", not "starts with nothing".
  [
    'everything for a blank e-mail',
    { email: '  ', amount: '14.25' },
    ['pd-f05', 'pd-f02', 'pd-f01'],
  ],
  ['everything for a blank e-mail alone', { email: ' ' }, FIXTURE.map((f) => f.id).reverse()],
  [
    'a search with the others',
    { email: 'example.com', amountMax: '14.25', cardLastFour: '1111' },
    ['pd-f01'],
  ],
];

async function write(journal: JournalPort, f: Fixture) {
  const { fields, ...entry } = f.entry;
  await journal.begin({
    ...entry,
    clientOrderId: f.id,
    operator: OPERATOR,
    fields: fields ?? { amount: '1.00' },
  });
  const orderId = f.orderId ?? `g-${f.id}`;
  switch (f.outcome) {
    case 'approved':
    case 'declined':
      await journal.finish(f.id, { status: f.outcome, orderId });
      break;
    case 'refused':
      await journal.refuse(f.id, { code: 'E1', message: 'Refused' });
      break;
    case 'unknown':
      await journal.markUnknown(f.id, { message: 'No answer' });
      break;
    case 'acknowledged':
      await journal.acknowledge(f.id, orderId);
      break;
    case 'sending':
      break;
  }
}

/**
 * What the totals must say, from the fixture alone: approved sums what the gateway approved,
 * open what is still owed an answer (a link waiting for its customer is not), not moved counts
 * the rest. Amounts as minor units in text, per currency ('' for entries without one).
 */
function expectedTotals(fixture: readonly Fixture[]) {
  const out: Record<
    string,
    Record<string, { approved: [number, bigint]; open: [number, bigint]; notMoved: number }>
  > = {};
  for (const f of fixture) {
    const currency = f.entry.currency ?? '';
    const action = f.entry.action ?? f.entry.operation;
    const line = ((out[currency] ??= {})[action] ??= {
      approved: [0, 0n],
      open: [0, 0n],
      notMoved: 0,
    });
    const amount = f.entry.amountMinor ?? 0n;
    // A waiting link is open too: its customer may have paid before the journal heard of it.
    if (f.outcome === 'approved') line.approved = [line.approved[0] + 1, line.approved[1] + amount];
    else if (['unknown', 'sending', 'acknowledged'].includes(f.outcome))
      line.open = [line.open[0] + 1, line.open[1] + amount];
    else line.notMoved += 1;
  }
  return out;
}

/** The store's totals in the shape of expectedTotals. */
function shapeOf(totals: Awaited<ReturnType<JournalPort['totals']>>) {
  const out: ReturnType<typeof expectedTotals> = {};
  for (const c of totals.currencies) {
    const byAction: ReturnType<typeof expectedTotals>[string] = {};
    for (const a of c.byAction)
      byAction[a.action] = {
        approved: [a.approved.count, a.approved.minor],
        open: [a.open.count, a.open.minor],
        notMoved: a.notMoved,
      };
    out[c.currency ?? ''] = byAction;
  }
  return out;
}

const names: Record<string, string> = { [SHOP]: 'Sandbox', [OTHER]: 'Acme, "EU" shop' };

describe.each(adapters)('the journal search on $name', (adapter) => {
  let harness: PortHarness;

  beforeAll(async () => {
    if (adapter.skip) return;
    harness = await adapter.open();
    for (const id of [SHOP, OTHER, GONE]) await harness.addProfile(id);
    for (const f of FIXTURE) await write(harness.port, f);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  it.skipIf(adapter.skip).each(SEARCHES)('finds %s', async (_what, filter, expected) => {
    const page = await harness.port.search(filter, 0, 100);
    expect(page.rows.map((r) => r.clientOrderId)).toEqual(expected);
    expect(page.total).toBe(expected.length);
    const exported: string[] = [];
    for await (const entry of harness.port.iterate(filter)) exported.push(entry.clientOrderId);
    expect(exported).toEqual(expected);
  });

  it.skipIf(adapter.skip)(
    'says how to write an amount or the last four it cannot read',
    async () => {
      for (const [filter, message] of [
        [
          { amount: '14,25' },
          "The journal filter's amount (14,25) is not an amount: write digits with a point for the decimals, such as 14.25.",
        ],
        [
          { amountMax: '1,234.50' },
          "The journal filter's largest amount (1,234.50) has thousands separators: write 1234.50.",
        ],
        [
          { amountMin: '20', amountMax: '10' },
          "The journal filter's smallest amount (20) is above its largest (10): swap them.",
        ],
        [
          { cardLastFour: '11' },
          "The journal filter's last four digits (11) are not four digits: write the card's last four, such as 1111.",
        ],
      ] as const) {
        const refused = await rejection(harness.port.search(filter, 0, 10));
        expect(refused).toBeInstanceOf(JournalError);
        expect(refused.message).toBe(message);
      }
    },
  );

  it.skipIf(adapter.skip)('totals per currency and action what a filter shows', async () => {
    expect(shapeOf(await harness.port.totals({}))).toEqual(expectedTotals(FIXTURE));
    const eur = FIXTURE.filter((f) => f.entry.currency === 'EUR');
    expect(shapeOf(await harness.port.totals({ currency: 'EUR' }))).toEqual(expectedTotals(eur));
    const maria = FIXTURE.filter((f) => ['pd-f01', 'pd-f02', 'pd-f05'].includes(f.id));
    expect(shapeOf(await harness.port.totals({ email: 'maria' }))).toEqual(expectedTotals(maria));
    expect((await harness.port.totals({ amount: '1.23' })).currencies).toEqual([]);
  });

  it.skipIf(adapter.skip)(
    'exports each profile by name, its id beside it, and the totals of the lines written',
    async () => {
      const service = new JournalService(harness.port, (id) => names[id]);
      let totals: Awaited<ReturnType<JournalPort['totals']>> | undefined;
      const text = await contentText(() =>
        service.csvChunks({ currency: 'EUR' }, undefined, (t) => {
          totals = t;
        }),
      );
      const lines = text.trimEnd().split('\r\n');
      expect(lines[0]).toMatch(/^created_at,operator,profile,profile_id,action,/);
      const byId = (id: string) => lines.find((l) => l.includes(`,${id},`))!;
      expect(byId('pd-f01')).toContain(`,Sandbox,${SHOP},Refund,`);
      expect(byId('pd-f04')).toContain(`,"Acme, ""EU"" shop",${OTHER},Partial refund,`);
      expect(byId('pd-f08')).toContain(`,Removed profile gone-4e9,${GONE},Capture,`);
      expect(lines).toHaveLength(1 + FIXTURE.filter((f) => f.entry.currency === 'EUR').length);
      // Worked out from the fixture: approved 14.25 + 3.00; open 142.50 + 5.00 + 2.50 and the
      // waiting link's 70.00; not moved: the refused void.
      expect((await service.totalsCsv(totals!)).split('\r\n')).toEqual([
        'totals,currency,action,approved_entries,approved_amount,open_entries,open_amount,not_moved_entries',
        'total,EUR,all,2,,4,,1',
        'total,EUR,Capture,0,0.00,1,2.50,0',
        'total,EUR,Partial refund,1,3.00,1,142.50,0',
        'total,EUR,Payment link,0,0.00,1,70.00,0',
        'total,EUR,Refund,1,14.25,1,5.00,0',
        'total,EUR,Void,0,0.00,0,0.00,1',
        '',
      ]);
    },
  );
});
