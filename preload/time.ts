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
