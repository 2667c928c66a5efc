// The totals of whatever the journal's filter shows, per currency and action, beside the list:
// what moved (approved; per action when there are several, never one sum of captures and
// refunds), what may still move (open: the gateway's final word is owed, so the moved sum is
// "at least" until it comes) and how many did not move. Per action on request. Main adds the
// minor units per currency (main/store/journal/totals.ts); this only shows its text, so two
// currencies are never added together here. Totals read every matching entry, so a busy
// journal (a batch writing an entry a moment) refreshes them at most every REFRESH_MS, not at
// each change as the list's page does. On a large journal they take a moment (main reads them
// off its main thread, so the list goes on meanwhile): past SLOW_MS the place says so.

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import type { JournalFilterInput, JournalTotalsView } from '../../../../common/contract';
import { groupThousands } from '../../../../common/money';
import { paydesk, unwrap } from '../../api';
import { plural } from '../../format';

/** The least time between two refreshes of the totals while the journal changes. */
const REFRESH_MS = 2_000;
/** Totals still being read after this long are said to be (sooner, a blink). */
const SLOW_MS = 300;

type CurrencyTotals = JournalTotalsView['currencies'][number];

const money = (amount: string, currency: string) => `${groupThousands(amount)} ${currency}`;

/** One currency's line: moved, at most, not moved. */
function CurrencyLine({ c }: { c: CurrencyTotals }) {
  if (c.currency === null) {
    const n = c.approved.count + c.open.count + c.notMoved;
    return (
      <li className="totals-line">
        <span className="totals-currency">No amount</span>
        <span>{plural(n, 'entry', 'entries')} without an amount (saved cards and the like)</span>
      </li>
    );
  }
  const currency = c.currency;
  return (
    <li className="totals-line">
      <span className="totals-currency">{currency}</span>
      {c.byAction.length > 1 ? (
        // Captures, refunds and payouts move money in different directions: one sum of them
        // would mean nothing, so each action's approved sum is said on its own.
        <span>
          {plural(c.approved.count, 'entry', 'entries')} approved:{' '}
          {c.byAction
            .filter((a) => a.approved.count > 0)
            .map((a, i) => (
              <span key={a.action}>
                {i > 0 && ' · '}
                {a.label} <strong className="mono-num">{money(a.approved.amount, currency)}</strong>{' '}
                ({a.approved.count})
              </span>
            ))}
        </span>
      ) : (
        <span>
          <strong className="mono-num">{money(c.approved.amount, c.currency)}</strong> approved (
          {plural(c.approved.count, 'entry', 'entries')})
        </span>
      )}
      {c.open.count > 0 && (
        <span className="totals-open">
          {plural(c.open.count, 'entry', 'entries')} still owed an answer:{' '}
          <span className="mono-num">{money(c.open.amount, c.currency)}</span> may yet move, so at
          least the approved sum moved
        </span>
      )}
      {c.notMoved > 0 && (
        <span className="totals-muted">{plural(c.notMoved, 'entry', 'entries')} moved nothing</span>
      )}
    </li>
  );
}

/** Per action, for every currency: a small table opened on request. */
function ByAction({ totals }: { totals: JournalTotalsView }) {
  const rows = totals.currencies.filter((c) => c.currency !== null);
  if (rows.length === 0) return null;
  return (
    <details className="totals-by-action">
      <summary>By action</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col">Action</th>
            <th scope="col" className="num">
              Approved
            </th>
            <th scope="col" className="num">
              Still owed an answer
            </th>
            <th scope="col" className="num">
              Moved nothing
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.flatMap((c) =>
            c.byAction.map((a) => (
              <tr key={`${c.currency}-${a.action}`}>
                <td>{c.currency}</td>
                <td>{a.label}</td>
                <td className="num mono-num">
                  {money(a.approved.amount, c.currency ?? '')} ({a.approved.count})
                </td>
                <td className="num mono-num">
                  {a.open.count > 0
                    ? `${money(a.open.amount, c.currency ?? '')} (${a.open.count})`
                    : '—'}
                </td>
                <td className="num mono-num">{a.notMoved || '—'}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </details>
  );
}

export function JournalTotals({ filter }: { filter: JournalFilterInput }) {
  // Not under keys.journal: a journal change refreshes the list at once, these on their own.
  const totals = useQuery({
    queryKey: ['journal-totals', filter],
    queryFn: () => unwrap(paydesk().journal.totals({ filter })),
    gcTime: 60_000,
  });
  const { refetch } = totals;
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      timer = undefined;
      last = Date.now();
      void refetch();
    };
    const off = window.paydesk?.on('journalChanged', () => {
      if (timer !== undefined) return;
      timer = setTimeout(refresh, Math.max(0, last + REFRESH_MS - Date.now()));
    });
    return () => {
      off?.();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [refetch]);
  const slow = useTrueFor(totals.isPending, SLOW_MS);
  if (totals.error)
    return (
      <p className="journal-totals totals-muted" role="status">
        Totals could not be read: {totals.error.message}
      </p>
    );
  if (totals.isPending && slow)
    return (
      <p className="journal-totals totals-muted" role="status">
        Adding up the totals of these entries…
      </p>
    );
  if (!totals.data || totals.data.currencies.length === 0) return null;
  return (
    <section className="journal-totals" aria-label="Totals of these entries">
      <h2 className="totals-title">Totals of these entries</h2>
      <ul className="totals-lines">
        {totals.data.currencies.map((c) => (
          <CurrencyLine key={c.currency ?? ''} c={c} />
        ))}
      </ul>
      <ByAction totals={totals.data} />
    </section>
  );
}

/** Whether `value` has been true for at least `ms` (false again as soon as it is not). */
function useTrueFor(value: boolean, ms: number): boolean {
  const [long, setLong] = useState(false);
  useEffect(() => {
    if (!value) return;
    const timer = setTimeout(() => setLong(true), ms);
    return () => {
      clearTimeout(timer);
      setLong(false);
    };
  }, [value, ms]);
  return value && long;
}
