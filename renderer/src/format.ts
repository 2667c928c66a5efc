// Display formats shared by the journal and admin screens. Times are shown in local time with
// a fixed, sortable layout; counts with thousands separators.

const pad = (n: number) => String(n).padStart(2, '0');

/** 2025-03-14 09:26:53 in local time; the raw text when it is not a date. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const count = new Intl.NumberFormat('en-US');
export function formatCount(n: number): string {
  return count.format(n);
}

export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
