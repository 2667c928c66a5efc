// The Reports screen's pictures, where a person would rather look than read: approved volume per
// day, refunds against captures, and failures per day. Drawn by chart.js, loaded with the first
// chart (draw-chart.ts, a chunk of its own). Amounts are one currency's (chosen here when the range has several);
// a bar's height is a number, but its label is the exact decimal text of the bigint sum.

import { useEffect, useId, useRef, useState } from 'react';

import {
  byDayCurrencyKind,
  currenciesOf,
  daysBetween,
  NO_CURRENCY,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  rollUp,
  type ReportKind,
  type ReportLine,
} from '../../../../common/report';
import { chartValue, money } from './figures';

/** The app's own colours (styles.css), read once the page has them. */
function palette(): Record<ReportKind | 'failed' | 'text' | 'grid', string> {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    capture: v('--accent', '#2563eb'),
    refund: v('--warning', '#b45309'),
    void: '#7c3aed',
    'cancel-hold': '#0891b2',
    payout: v('--success', '#15803d'),
    rebill: '#db2777',
    failed: v('--danger', '#b91c1c'),
    text: v('--text', '#111827'),
    grid: v('--border', '#d1d5db'),
  };
}

interface Series {
  label: string;
  color: string;
  /** Minor units (money) or counts, one per day. */
  values: bigint[];
}

function BarChart({
  title,
  days,
  series,
  currency,
  stacked,
}: {
  title: string;
  days: string[];
  series: Series[];
  /** The currency of the values, or undefined for counts. */
  currency?: string;
  stacked?: boolean;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const headingId = useId();
  useEffect(() => {
    const target = canvas.current;
    if (!target) return;
    const colors = palette();
    const value = (v: bigint) => (currency ? chartValue(v, currency) : Number(v));
    const text = (v: bigint) => (currency ? money(v, currency) : String(v));
    let undraw: (() => void) | undefined;
    let gone = false;
    void import('./draw-chart').then(({ drawBarChart }) => {
      if (gone) return;
      undraw = drawBarChart(target, {
        labels: days.map((d) => d.slice(5)),
        titles: days,
        datasets: series.map((s) => ({
          label: s.label,
          color: s.color,
          values: s.values.map(value),
          texts: s.values.map(text),
        })),
        stacked: !!stacked,
        counts: !currency,
        colors: { text: colors.text, grid: colors.grid },
      });
    });
    return () => {
      gone = true;
      undraw?.();
    };
  }, [days, series, currency, stacked]);
  const described = series
    .map((s) => `${s.label}: ${s.values.filter((v) => v > 0n).length} days`)
    .join('; ');
  return (
    <figure className="report-chart" aria-labelledby={headingId}>
      <figcaption id={headingId}>{title}</figcaption>
      <div className="report-chart-area">
        <canvas ref={canvas} role="img" aria-label={`${title}. ${described}.`} />
      </div>
    </figure>
  );
}

export function ReportCharts({
  lines,
  from,
  to,
}: {
  lines: readonly ReportLine[];
  from: string;
  to: string;
}) {
  const currencies = currenciesOf(lines).filter((c) => c !== NO_CURRENCY);
  const [chosen, setChosen] = useState<string>();
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];
  const days = daysBetween(from, to);
  const colors = palette();
  const perDay = rollUp(lines, byDayCurrencyKind);
  const approved = (kind: ReportKind) =>
    days.map((d) => perDay.get(`${d}|${currency}|${kind}`)?.approved.amountMinor ?? 0n);
  const kinds = REPORT_KINDS.filter((k) =>
    lines.some((l) => l.kind === k && l.currency === currency && l.outcome === 'approved'),
  );
  const failures = days.map((d) =>
    BigInt(
      lines.filter((l) => l.day === d && l.outcome === 'failed').reduce((n, l) => n + l.count, 0),
    ),
  );
  return (
    <section className="card report-charts" aria-labelledby="report-charts">
      <h2 id="report-charts">Charts</h2>
      {currencies.length > 1 && (
        <div className="field report-currency">
          <label htmlFor="report-chart-currency">Currency</label>
          <select
            id="report-chart-currency"
            value={currency}
            onChange={(e) => setChosen(e.target.value)}
          >
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
      )}
      <div className="report-chart-grid">
        {currency && (
          <>
            <BarChart
              title={`Approved volume per day, ${currency}`}
              days={days}
              currency={currency}
              stacked
              series={kinds.map((k) => ({
                label: REPORT_KIND_LABELS[k],
                color: colors[k],
                values: approved(k),
              }))}
            />
            <BarChart
              title={`Refunds against captures, ${currency}`}
              days={days}
              currency={currency}
              series={[
                { label: 'Captured', color: colors.capture, values: approved('capture') },
                { label: 'Refunded', color: colors.refund, values: approved('refund') },
              ]}
            />
          </>
        )}
        <BarChart
          title="Failures per day (every currency, how many)"
          days={days}
          series={[{ label: 'Failed', color: colors.failed, values: failures }]}
        />
      </div>
    </section>
  );
}
