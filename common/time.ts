// Times as a clerk and an auditor read them: local time with its UTC offset, so an entry made
// at 09:26 in Berlin is never mistaken for 09:26 UTC. Shared by main (CSV export) and the
// renderer (tables), so both say the same.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The offset of `date` in the local time zone: "+01:00", "-05:30", "+00:00". */
export function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ISO 8601 in local time with its offset: 2026-03-14T09:26:53.120+01:00. Raw text if not a date. */
export function isoWithOffset(iso: string): string {
  const d = new Date(iso);
  if (iso === '' || Number.isNaN(d.getTime())) return iso;
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}` +
    offsetOf(d)
  );
}

/** For screens: 2026-03-14 09:26:53 +01:00 (local time, its offset). Raw text if not a date. */
export function localTimeWithOffset(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${offsetOf(d)}`;
}

/** "00" to "59": local hours and minutes. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => pad(n));

/** 0-9 for a decimal digit's char code, -1 for anything else. */
function digit(text: string, at: number): number {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : -1;
}

/** `YYYY-MM-DD`: the UTC day of a stored time (the day itself is checked by Date.parse). */
function plainUtcDay(iso: string): boolean {
  for (const at of [0, 1, 2, 3, 5, 6, 8, 9]) if (digit(iso, at) < 0) return false;
  return iso.charCodeAt(4) === 45 && iso.charCodeAt(7) === 45; // - -
}

/** `THH:MM:SS.mmmZ` from position 10 on: hours 00-23, minutes and seconds 00-59, the Z. */
function plainUtcTime(iso: string): boolean {
  return (
    iso.length === 24 &&
    iso.charCodeAt(10) === 84 && // T
    iso.charCodeAt(13) === 58 && // :
    iso.charCodeAt(16) === 58 && // :
    iso.charCodeAt(19) === 46 && // .
    iso.charCodeAt(23) === 90 && // Z
    digit(iso, 11) >= 0 &&
    digit(iso, 12) >= 0 &&
    digit(iso, 11) * 10 + digit(iso, 12) <= 23 &&
    digit(iso, 14) >= 0 &&
    digit(iso, 14) <= 5 &&
    digit(iso, 15) >= 0 &&
    digit(iso, 17) >= 0 &&
    digit(iso, 17) <= 5 &&
    digit(iso, 18) >= 0 &&
    digit(iso, 20) >= 0 &&
    digit(iso, 21) >= 0 &&
    digit(iso, 22) >= 0
  );
}

/**
 * What one UTC day's times need to be written in local time without a Date each: see
 * isoWithOffsetByDay. `exact`: the day goes through isoWithOffset itself.
 */
interface LocalDay {
  key: string; // the UTC `YYYY-MM-DD`, '' before the first
  exact: boolean;
  firstDate: string; // the local `YYYY-MM-DD` at the day's start
  nextDate: string; // the one after it, at the day's end
  firstHour: number; // the local hour at the day's start
  shift: number; // how many minutes local minutes run ahead of UTC's, 0-59
  offset: string; // `+01:00`
  // With a whole-hour shift (most zones): the local `YYYY-MM-DDTHH:` of each UTC hour, made
  // when that hour first comes up, so a time is that, its UTC minutes to milliseconds as
  // stored, and the offset.
  hours: (string | undefined)[];
}

const noDay = (): LocalDay => ({
  key: '',
  exact: true,
  firstDate: '',
  nextDate: '',
  firstHour: 0,
  shift: 0,
  offset: '',
  hours: [],
});

/** A time of `day` from its UTC hour and minute and the rest as stored (`:SS.mmm`). */
function quickTime(day: LocalDay, hour: number, minute: number, rest: string): string {
  const m = minute + day.shift;
  const h = day.firstHour + hour + (m < 60 ? 0 : 1);
  return `${h < 24 ? day.firstDate : day.nextDate}T${TWO_DIGITS[h % 24]}:${TWO_DIGITS[m % 60]}${rest}${day.offset}`;
}

/** Fills `day` for the UTC day `key` (`YYYY-MM-DD`, checked as plainUtcDay checks it). */
function learnDay(day: LocalDay, key: string): void {
  day.key = key;
  day.exact = true;
  day.hours.length = 0;
  const start = Date.parse(`${key}T00:00:00.000Z`);
  if (Number.isNaN(start)) return;
  const zone = new Date(start).getTimezoneOffset();
  for (let hour = 1; hour <= 24; hour++) {
    if (new Date(start + hour * 3_600_000 - 1).getTimezoneOffset() !== zone) return;
  }
  // `YYYY-MM-DDTHH:MM:SS.mmm+hh:mm`, read from its end (a year may have more digits).
  const first = isoWithOffset(new Date(start).toISOString());
  const last = isoWithOffset(new Date(start + 86_399_999).toISOString());
  day.firstDate = first.slice(0, -19);
  day.nextDate = last.slice(0, -19);
  day.firstHour = Number(first.slice(-18, -16));
  day.shift = Number(first.slice(-15, -13));
  day.offset = first.slice(-6);
  day.exact =
    last.slice(-6) !== day.offset ||
    quickTime(day, 0, 0, ':00.000') !== first ||
    quickTime(day, 23, 59, ':59.999') !== last;
}

/**
 * isoWithOffset for a long run of times (a CSV export of the journal), the same text at a
 * fraction of the cost. The journal stores UTC (`2026-03-14T08:26:53.120Z`), and on most days
 * the local offset is the same all day: then a time's local text is its UTC hour and minute
 * moved by that offset, on the local date of the day's start or the next one, and its seconds
 * as stored. So isoWithOffset runs twice per UTC day (its first and last millisecond, which
 * give the dates, the offset and the shift) and the offset is read at every hour of the day;
 * a day on which it changes (a summer-time change), whose ends this shortcut would write
 * differently from isoWithOffset (an offset with seconds, from before standard time), or a
 * time stored in another shape goes through isoWithOffset itself. Two days are kept, the last
 * two used: an export's creation and final times take turns and are mostly of one day, or of
 * two. Each call makes a fresh cache: the process's time zone may change between two exports
 * (tests set TZ).
 */
export function isoWithOffsetByDay(): (iso: string) => string {
  let day = noDay(); // the day of the last time written
  let other = noDay(); // the one before it
  return (iso) => {
    if (!plainUtcTime(iso)) return isoWithOffset(iso);
    if (day.key === '' || !iso.startsWith(day.key)) {
      if (!plainUtcDay(iso)) return isoWithOffset(iso);
      [day, other] = [other, day];
      if (day.key === '' || !iso.startsWith(day.key)) learnDay(day, iso.slice(0, 10));
    }
    if (day.exact) return isoWithOffset(iso);
    const hour = digit(iso, 11) * 10 + digit(iso, 12);
    if (day.shift !== 0)
      return quickTime(day, hour, digit(iso, 14) * 10 + digit(iso, 15), iso.slice(16, 23));
    const h = day.firstHour + hour;
    const head = (day.hours[hour] ??=
      `${h < 24 ? day.firstDate : day.nextDate}T${TWO_DIGITS[h % 24]}:`);
    return head + iso.slice(14, 23) + day.offset;
  };
}

/**
 * What the journal's filter takes as a time, and the sentence when it is not one. A date alone
 * or a date and time without a zone is read in this desk's time zone, as a clerk means it; with
 * Z or an offset it is that instant.
 */
export const FILTER_TIME_HINT =
  "a date such as 2026-03-14, or a date and time such as 2026-03-14T09:30; without Z or an offset (+01:00) it is read in this desk's time zone";

const FILTER_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The instant a filter's time names, or undefined when it is not a time (or not a real day). */
export function parseFilterTime(value: string): Date | undefined {
  const match = FILTER_TIME.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', ms = '0', zone] = match.map((part) => part);
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hours, minutes, seconds] = parts;
  if (month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59 || seconds > 59)
    return undefined;
  const millis = Number(ms.padEnd(3, '0'));
  // The calendar day must exist: Date would roll 2026-02-30 over to March.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  if (zone === undefined) return new Date(year, month - 1, day, hours, minutes, seconds, millis);
  const offset =
    zone === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
  if (Math.abs(offset) > 18 * 60) return undefined;
  return new Date(
    Date.UTC(year, month - 1, day, hours, minutes, seconds, millis) - offset * 60_000,
  );
}
