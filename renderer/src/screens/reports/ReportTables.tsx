// The Reports screen's tables: the totals of the range per currency and kind, each day, and
// each operator. Every figure is one currency's; a figure that entries still waiting for the
// gateway, or entries without an amount, could change is marked "at least".

import {
  byCurrencyKind,
  byDayCurrencyKind,
  byOperatorCurrencyKind,
  currenciesOf,
  emptyTally,
  NO_CURRENCY,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  rollUp,
  type OutcomeTallies,
  type ReportLine,
  type Tally,
} from '../../../../common/report';
import { figure, money } from './figures';

const kindsIn = (lines: readonly ReportLine[]) =>
  REPORT_KINDS.filter((k) => lines.some((l) => l.kind === k));

const currencyTitle = (currency: string) =>
  currency === NO_CURRENCY ? 'Without an amount' : currency;

/**
 * Whether approved figures may still grow: entries waiting for the gateway, or (in a currency's
 * table) approved entries whose amount the journal does not hold. Entries without any amount
 * are counted exactly in a table of their own.
 */
function atLeast(tallies: OutcomeTallies | undefined, currency: string): boolean {
  if (!tallies) return false;
  return (
    tallies.pending.count > 0 || (currency !== NO_CURRENCY && tallies.approved.withoutAmount > 0)
  );
}

/**
 * "12 · 1,234.50" (the table names the currency), with "at least" when waiting entries or
 * missing amounts could add to it.
 */
function Done({ tallies, currency }: { tallies: OutcomeTallies | undefined; currency: string }) {
  const t = tallies?.approved ?? emptyTally();
  const open = atLeast(tallies, currency);
  if (t.count === 0 && !open) return <span className="muted">–</span>;
  return (
    <>
      {open && <span className="at-least">at least </span>}
      {t.count}
      {currency !== NO_CURRENCY && (
        <span className="money"> · {figure(t.amountMinor, currency)}</span>
      )}
    </>
  );
}

/** A row's cells: what was done of each kind, then how many failed (per day and per operator). */
function KindCells({
  of,
  kinds,
  currency,
}: {
  of: (kind: string) => OutcomeTallies | undefined;
  kinds: readonly string[];
  currency: string;
}) {
  const failed = kinds.reduce((n, k) => n + (of(k)?.failed.count ?? 0), 0);
  return (
    <>
      {kinds.map((k) => (
        <td key={k} className="num">
          <Done tallies={of(k)} currency={currency} />
        </td>
      ))}
      <td className="num">{failed || '–'}</td>
    </>
  );
}

export function Waiting({ lines }: { lines: readonly ReportLine[] }) {
  const waiting = lines.filter((l) => l.outcome === 'pending');
  if (waiting.length === 0) return null;
  const count = waiting.reduce((n, l) => n + l.count, 0);
  return (
    <div className="notice notice-warning report-waiting" role="note">
      <strong>
        {count} {count === 1 ? 'operation still waits' : 'operations still wait'} for the gateway’s
        final word.
      </strong>{' '}
      Until it answers, what they move is not counted as done: the approved figures are at least the
      ones shown.
    </div>
  );
}

function TallyCells({ t, currency }: { t: Tally; currency: string }) {
  return (
    <>
      <td className="num">{t.count || '–'}</td>
      <td className="num money">
        {t.count && currency !== NO_CURRENCY ? money(t.amountMinor, currency) : ''}
      </td>
    </>
  );
}

export function Totals({ lines }: { lines: readonly ReportLine[] }) {
  const totals = rollUp(lines, byCurrencyKind);
  return (
    <section className="card" aria-labelledby="report-totals">
      <h2 id="report-totals">Totals</h2>
      {currenciesOf(lines).map((currency) => (
        <table
          key={currency}
          className="data report-table"
          aria-label={`Totals in ${currencyTitle(currency)}`}
        >
          <caption>{currencyTitle(currency)}</caption>
          <thead>
            <tr>
              <th scope="col">Operation</th>
              <th scope="col" className="num">
                Approved
              </th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col" className="num">
                Failed
              </th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col" className="num">
                Waiting
              </th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {REPORT_KINDS.map((kind) => {
              const t = totals.get(`${currency}|${kind}`);
              if (!t) return null;
              const open = atLeast(t, currency);
              return (
                <tr key={kind}>
                  <th scope="row">{REPORT_KIND_LABELS[kind]}</th>
                  <td className="num">
                    {open && <span className="at-least">at least </span>}
                    {t.approved.count}
                  </td>
                  <td className="num money">
                    {currency !== NO_CURRENCY && (
                      <>
                        {open && <span className="at-least">at least </span>}
                        {money(t.approved.amountMinor, currency)}
                      </>
                    )}
                  </td>
                  <TallyCells t={t.failed} currency={currency} />
                  <TallyCells t={t.pending} currency={currency} />
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
    </section>
  );
}

export function PerDay({ lines }: { lines: readonly ReportLine[] }) {
  const perDay = rollUp(lines, byDayCurrencyKind);
  const kinds = kindsIn(lines);
  const days = [...new Set(lines.map((l) => l.day))].sort();
  return (
    <section className="card" aria-labelledby="report-per-day">
      <h2 id="report-per-day">Per day</h2>
      <p className="muted">
        Approved: how many, and how much. Days without any operation are left out.
      </p>
      {currenciesOf(lines).map((currency) => (
        <table
          key={currency}
          className="data report-table"
          aria-label={`Per day in ${currencyTitle(currency)}`}
        >
          <caption>{currencyTitle(currency)}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {kinds.map((k) => (
                <th key={k} scope="col" className="num">
                  {REPORT_KIND_LABELS[k]}
                </th>
              ))}
              <th scope="col" className="num">
                Failed
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => {
              const of = (k: string) => perDay.get(`${day}|${currency}|${k}`);
              if (!kinds.some((k) => of(k))) return null;
              return (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  <KindCells of={of} kinds={kinds} currency={currency} />
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
    </section>
  );
}

export function ByOperator({ lines }: { lines: readonly ReportLine[] }) {
  const byOperator = rollUp(lines, byOperatorCurrencyKind);
  const kinds = kindsIn(lines);
  const operators = [...new Set(lines.map((l) => l.operator))].sort();
  const currencies = currenciesOf(lines);
  return (
    <section className="card" aria-labelledby="report-by-operator">
      <h2 id="report-by-operator">By operator</h2>
      <table className="data report-table" aria-label="By operator">
        <thead>
          <tr>
            <th scope="col">Operator</th>
            <th scope="col">Currency</th>
            {kinds.map((k) => (
              <th key={k} scope="col" className="num">
                {REPORT_KIND_LABELS[k]}
              </th>
            ))}
            <th scope="col" className="num">
              Failed
            </th>
          </tr>
        </thead>
        <tbody>
          {operators.flatMap((operator) =>
            currencies.map((currency) => {
              const of = (k: string) => byOperator.get(`${operator}|${currency}|${k}`);
              if (!kinds.some((k) => of(k))) return null;
              return (
                <tr key={`${operator}|${currency}`}>
                  <th scope="row">{operator}</th>
                  <td>{currencyTitle(currency)}</td>
                  <KindCells of={of} kinds={kinds} currency={currency} />
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </section>
  );
}
