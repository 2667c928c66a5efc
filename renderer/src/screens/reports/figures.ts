// The Reports screen's figures from the lines main sent (common/report.ts rolls them up): minor
// units as bigint, shown as decimal text in their own currency, never added across currencies.

import { currencyExponent, groupThousands, minorToText } from '../../../../common/money';
import {
  NO_CURRENCY,
  type ReportKind,
  type ReportLine,
  type ReportOutcome,
} from '../../../../common/report';
import type { ReportLineData } from '../../../../common/report-contract';

export function linesOf(data: readonly ReportLineData[]): ReportLine[] {
  return data.map((l) => ({ ...l, amountMinor: BigInt(l.amountMinor) }));
}

/** 1,234.50 EUR; entries without an amount (no currency) have no money to show. */
export function money(minor: bigint, currency: string): string {
  if (currency === NO_CURRENCY) return '';
  return `${figure(minor, currency)} ${currency}`;
}

/** 1,234.50: for a table whose caption or column already names the currency. */
export function figure(minor: bigint, currency: string): string {
  return groupThousands(minorToText(minor, currencyExponent(currency)));
}

/** The figure a chart draws: major units as a number, for the bar's height only. */
export function chartValue(minor: bigint, currency: string): number {
  return Number(minorToText(minor, currencyExponent(currency)));
}

export const OUTCOME_WORDS: Record<ReportOutcome, string> = {
  approved: 'Approved',
  failed: 'Failed',
  pending: 'Waiting for the gateway',
};

export type { ReportKind };
