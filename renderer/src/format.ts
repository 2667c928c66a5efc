// Display formats shared by the journal and admin screens: counts with thousands separators.
// Times have one format on every screen, local time with its offset (common/time.ts
// localTimeWithOffset).

const count = new Intl.NumberFormat('en-US');
export function formatCount(n: number): string {
  return count.format(n);
}

export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
