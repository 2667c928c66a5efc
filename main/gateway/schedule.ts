// The schedule of a recurring payment: the n-th charge is the first one (the anchor) moved
// forward by n periods of the interval, in UTC. Monthly charges keep the anchor's day of the
// month, clamped at month ends (31 January, then 28 or 29 February, then 31 March), and are
// computed from the anchor each time, so they never drift. The sandbox charges by this rule and
// Paydesk previews a subscription's charges with it.

export type SchedulePeriod = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;

/** The anchor moved forward by `count` periods of `interval`, in UTC, month ends clamped. */
export function addPeriods(
  anchorMs: number,
  period: SchedulePeriod,
  interval: number,
  count: number,
): number {
  if (period === 'day') return anchorMs + count * interval * DAY_MS;
  if (period === 'week') return anchorMs + count * interval * 7 * DAY_MS;
  const anchor = new Date(anchorMs);
  const monthIndex = anchor.getUTCMonth() + count * interval;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(anchor.getUTCDate(), lastDay),
    anchor.getUTCHours(),
    anchor.getUTCMinutes(),
    anchor.getUTCSeconds(),
    anchor.getUTCMilliseconds(),
  );
}
