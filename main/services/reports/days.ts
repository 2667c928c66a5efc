// A report's days in the desk's time zone (the main process's, as every time Paydesk shows:
// common/time.ts): each calendar day as the UTC instants its local midnight and the next one
// fall on. A day across a summer-time change is 23 or 25 hours long, and an entry written at
// 00:30 local time belongs to that local day whatever its UTC date is.

import { daysBetween, MAX_REPORT_DAYS } from '../../../common/report';
import type { ReportDay } from '../../store/journal/port';
import { ServiceError } from '../errors';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local midnight that starts `day` (YYYY-MM-DD), or undefined when it is no calendar day. */
function localMidnight(day: string): Date | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(year, month - 1, date);
  // new Date(2026, 1, 30) quietly becomes 2 March: such a day is refused instead.
  if (at.getFullYear() !== year || at.getMonth() !== month - 1 || at.getDate() !== date)
    return undefined;
  return at;
}

function dayOf(label: 'From' | 'To', day: string): Date {
  const at = localMidnight(day);
  if (!at)
    throw new ServiceError(
      'INPUT',
      `${label} (${day}) is not a day: write it as 2026-03-14.`,
      label.toLowerCase(),
    );
  return at;
}

/** The days from `from` to `to`, both included, each with its UTC [from, to). */
export function reportDays(from: string, to: string): ReportDay[] {
  dayOf('From', from);
  dayOf('To', to);
  if (from > to)
    throw new ServiceError('INPUT', `From (${from}) is after To (${to}): swap them.`, 'from');
  const days = daysBetween(from, to);
  if (days.length > MAX_REPORT_DAYS)
    throw new ServiceError(
      'INPUT',
      `A report covers at most ${MAX_REPORT_DAYS} days; this range has ${days.length}. Choose a shorter one.`,
      'from',
    );
  const starts = [...days, nextDay(to)].map((d) => dayOf('To', d).toISOString());
  return days.map((day, i) => ({ day, from: starts[i]!, to: starts[i + 1]! }));
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The desk's time zone by name (Europe/Berlin), for the screen and the CSV to say. */
export function deskZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
