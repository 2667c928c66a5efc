// Reports -> Daily close: for a range of days and a profile (or all), what was captured,
// refunded, voided, paid out and rebilled, per day, currency, kind, operator and outcome. The
// grouping and sums are the journal store's own SQL (journal/summary.ts, on SQLite or a team's
// PostgreSQL alike); here the days are made in the desk's time zone (days.ts), amounts become
// exact decimal text for the screen, and the summary is written as CSV.

import { formatMinor } from '../../gateway/amount';
import { csvLineWriter } from '../../store/csv-record';
import type { JournalPort, ReportLine } from '../../store/journal/port';
import {
  byCurrencyKind,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  REPORT_OUTCOMES,
  rollUp,
  currenciesOf,
  NO_CURRENCY,
} from '../../../common/report';
import { deskZone, reportDays } from './days';

export interface ReportRequest {
  from: string;
  to: string;
  profileId?: string;
}

/** One line as it crosses the bridge: minor units as digits, the amount as decimal text. */
export interface ReportLineView {
  day: string;
  currency: string | null;
  kind: ReportLine['kind'];
  operator: string;
  outcome: ReportLine['outcome'];
  count: number;
  amountMinor: string;
  amount: string | null;
  withoutAmount: number;
}

export interface ReportView {
  from: string;
  to: string;
  /** The desk's time zone the days are counted in (Europe/Berlin). */
  zone: string;
  profileId: string | null;
  lines: ReportLineView[];
}

const amountText = (minor: bigint, currency: string | null) =>
  currency === null ? null : formatMinor(minor, currency);

export function lineView(l: ReportLine): ReportLineView {
  return {
    ...l,
    amountMinor: l.amountMinor.toString(),
    amount: amountText(l.amountMinor, l.currency),
  };
}

export const REPORT_CSV_COLUMNS = [
  'day',
  'currency',
  'operation',
  'operator',
  'outcome',
  'count',
  'amount',
  'amount_minor',
  'entries_without_amount',
] as const;

export class ReportService {
  constructor(private readonly journal: () => JournalPort) {}

  async lines(request: ReportRequest): Promise<ReportLine[]> {
    const days = reportDays(request.from, request.to);
    return this.journal().summary({
      days,
      ...(request.profileId ? { profileId: request.profileId } : {}),
    });
  }

  async summary(request: ReportRequest): Promise<ReportView> {
    const lines = await this.lines(request);
    return {
      from: request.from,
      to: request.to,
      zone: deskZone(),
      profileId: request.profileId ?? null,
      lines: lines.map(lineView),
    };
  }

  /**
   * The summary as CSV: one record per group, then a total per currency, operation and outcome
   * (day "total", operator empty). Never a sum across currencies. Days are the desk's (its
   * time zone), as on the screen.
   */
  async csv(request: ReportRequest): Promise<string> {
    const lines = await this.lines(request);
    const write = await csvLineWriter();
    const record = (l: ReportLine) => [
      l.currency ?? '',
      REPORT_KIND_LABELS[l.kind],
      l.operator,
      l.outcome,
      String(l.count),
      amountText(l.amountMinor, l.currency) ?? '',
      l.currency === null ? '' : l.amountMinor.toString(),
      String(l.withoutAmount),
    ];
    let out = write([...REPORT_CSV_COLUMNS]);
    for (const l of lines) out += write([l.day, ...record(l)]);
    const totals = rollUp(lines, byCurrencyKind);
    for (const currency of currenciesOf(lines)) {
      for (const kind of REPORT_KINDS) {
        const tallies = totals.get(`${currency}|${kind}`);
        if (!tallies) continue;
        for (const outcome of REPORT_OUTCOMES) {
          const t = tallies[outcome];
          if (t.count === 0) continue;
          const c = currency === NO_CURRENCY ? null : currency;
          out += write([
            'total',
            ...record({ ...t, day: 'total', currency: c, kind, operator: '', outcome }),
          ]);
        }
      }
    }
    return out;
  }
}
