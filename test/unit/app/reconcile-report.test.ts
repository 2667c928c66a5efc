// @vitest-environment jsdom
// The reconciliation's files, built for real: the CSV of every line in Paydesk's CSV dialect (a
// cell that starts like a formula is defused) and the printable page, read back by a real HTML
// parser (jsdom's DOMParser): what a controller signs, with every text from the journal or the gateway
// escaped, and an unfinished run saying so. (Here with the app tests: a DOM gets a worker of its own.)

import { describe, expect, it } from 'vitest';

import { reconcileCsv, reconcileHtml } from '../../../main/services/reconcile/report';
import type { LineView, RunView } from '../../../main/services/reconcile/view';

const RUN: RunView = {
  id: 7,
  profileId: 'p-1',
  profileName: 'Shop <EU>',
  operator: 'ann',
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-04-01T00:00:00.000Z',
  journalStore: 'sqlite',
  state: 'done',
  pausing: false,
  pausedBecause: null,
  perSecond: 5,
  atOnce: 4,
  createdAt: '2026-04-01T08:00:00.000Z',
  finishedAt: '2026-04-01T08:05:00.000Z',
  progress: {
    total: 3,
    done: 3,
    agrees: 1,
    differs: 1,
    unreadable: 1,
    notAskable: 0,
    left: 0,
    ratePerSecond: null,
    secondsLeft: null,
  },
};

const DIFFERS: LineView = {
  seq: 2,
  kind: 'entry',
  state: 'differs',
  orderId: '1000013',
  clientOrderId: 'pd-1',
  operation: 'RETURN',
  action: 'partial-refund',
  createdAt: '2026-03-02T10:00:00.000Z',
  journal: 'approved, 10.00 EUR',
  gateway: 'declined (reversal_declined), 10.00 EUR',
  findings: [
    {
      kind: 'declined-after-approval',
      message:
        'The journal says approved; the gateway now says declined: <script>alert(1)</script>',
    },
  ],
  error: null,
};
const UNREADABLE: LineView = {
  ...DIFFERS,
  seq: 3,
  state: 'unreadable',
  clientOrderId: '=HYPERLINK("x")',
  gateway: null,
  findings: [],
  error: "The gateway's status could not be read after 4 tries: HTTP 500",
};

describe('the printable page', () => {
  const page = (run: RunView, lines: LineView[]) =>
    new DOMParser().parseFromString(
      reconcileHtml(run, lines, new Date('2026-04-01T09:00:00.000Z')),
      'text/html',
    );

  it('lists each disagreement and each line not read, with lines to sign, and no script', () => {
    const doc = page(RUN, [DIFFERS, UNREADABLE]);
    expect(doc.querySelector('h1')?.textContent).toBe(
      'Reconciliation of the journal with the gateway',
    );
    const tables = doc.querySelectorAll('table');
    expect(tables).toHaveLength(3);
    const facts = tables[0]!.textContent ?? '';
    expect(facts).toContain('Shop <EU>');
    expect(facts).toContain('Lines read3 of 3');
    const differs = [...tables[1]!.querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(differs).toEqual([
      '21000013pd-1Partial refundapproved, 10.00 EURdeclined (reversal_declined), 10.00 EURThe journal says approved; the gateway now says declined: <script>alert(1)</script>',
    ]);
    expect(tables[2]!.textContent).toContain('could not be read after 4 tries: HTTP 500');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect([...doc.querySelectorAll('.sign div')].map((d) => d.textContent)).toEqual([
      'Checked by (name)',
      'Date',
      'Signature',
    ]);
    expect(doc.querySelector('.unfinished')).toBeNull();
  });

  it('says when the run is not finished', () => {
    const doc = page(
      { ...RUN, state: 'paused', progress: { ...RUN.progress, done: 1, left: 2 } },
      [],
    );
    expect(doc.querySelector('.unfinished')?.textContent).toBe(
      'This run is not finished: 2 lines have not been read yet. What follows is what was found so far.',
    );
    expect(doc.body.textContent).toContain('Disagreements (0)');
  });
});

describe('the CSV', () => {
  it('writes every line in the CSV dialect, a formula-like cell defused', async () => {
    const csv = await reconcileCsv([DIFFERS, UNREADABLE]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'line,kind,orderid,client_orderid,operation,written_at,journal,gateway,result,findings,error',
    );
    expect(lines[1]).toMatch(/^2,entry,1000013,pd-1,RETURN,.*,disagrees,/);
    expect(lines[2]).toContain(`'=HYPERLINK(""x"")`);
    expect(lines[2]).toContain('could not be read');
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});
