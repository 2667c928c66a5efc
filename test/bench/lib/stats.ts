// Medians, percentiles and the formatting every row shares.

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function ratio(project: number, reference: number): string {
  if (!Number.isFinite(project) || !Number.isFinite(reference) || reference === 0) return '';
  return `${(project / reference).toFixed(2)}x`;
}

/** 12,345 (no decimals) or 1.23 for small numbers. */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  if (value >= 0.1) return `${value.toFixed(2)} ms`;
  return `${(value * 1000).toFixed(1)} µs`;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** High-resolution milliseconds. */
export function now(): number {
  return performance.now();
}

/** A reference that moves more than this between two repetitions was disturbed (load). */
export const MOVED = 0.2;

/** The last two values differ by more than MOVED of the smaller (false for fewer than two). */
export function moved(values: readonly number[]): boolean {
  const [a, b] = values.slice(-2);
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b))
    return false;
  return Math.abs(a - b) / Math.min(a, b) > MOVED;
}

/**
 * Runs project and reference alternately (project, reference, project, ...) `reps` times, so
 * both see the same machine load, and returns every sample of each. While the reference moved by
 * more than MOVED between the last two repetitions (the machine's load changed under it), it
 * repeats, up to `maxReps` in all; `repeated` says how many repetitions were added.
 */
export async function interleave<T>(
  reps: number,
  project: (rep: number) => Promise<T>,
  reference: (rep: number) => Promise<T>,
  options: { figureOf?: (sample: T) => number; maxReps?: number } = {},
): Promise<{ project: T[]; reference: T[]; repeated: number }> {
  const figureOf = options.figureOf ?? ((sample: T) => (typeof sample === 'number' ? sample : NaN));
  const maxReps = options.maxReps ?? reps * 2;
  const out = { project: [] as T[], reference: [] as T[], repeated: 0 };
  for (let rep = 0; rep < maxReps; rep++) {
    if (rep >= reps && !moved(out.reference.map(figureOf))) break;
    if (rep >= reps) out.repeated++;
    out.project.push(await project(rep));
    out.reference.push(await reference(rep));
  }
  return out;
}

/** Calls `fn` until `maxMs` have passed or `maxCount` calls were made; returns ms per call. */
export async function timeLoop(
  fn: () => unknown,
  maxMs: number,
  maxCount: number,
): Promise<{ perCallMs: number; calls: number }> {
  const start = now();
  let calls = 0;
  while (calls < maxCount && now() - start < maxMs) {
    await fn();
    calls++;
  }
  return { perCallMs: (now() - start) / Math.max(1, calls), calls };
}
