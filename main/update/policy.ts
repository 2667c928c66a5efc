// The update's decisions, pure so they are tested without Electron or a feed: when the next
// check is due, whether an offered version is newer than the one running, and whether installing
// (which quits Paydesk) is allowed now, with the sentence that says why not. Installing restarts
// the app, so it waits for what a restart would cut short: a request of this desk on its way to
// the gateway or waiting for its final answer, and a running batch.

/** Checked at start, then once a day. */
export const CHECK_EVERY_MS = 24 * 60 * 60_000;

/** True when no check has run yet, or the last one is `everyMs` old. */
export function checkDue(lastCheckedAt: number | null, now: number, everyMs = CHECK_EVERY_MS) {
  return lastCheckedAt === null || now - lastCheckedAt >= everyMs;
}

interface Semver {
  core: [number, number, number];
  pre: string[];
}

function parseSemver(version: string): Semver | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    version.trim(),
  );
  if (!match) return null;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    pre: match[4] ? match[4].split('.') : [],
  };
}

function comparePre(a: string[], b: string[]): number {
  // A release is newer than any of its pre-releases (1.2.0 > 1.2.0-beta.1).
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const nx = /^\d+$/.test(x) ? Number(x) : null;
    const ny = /^\d+$/.test(y) ? Number(y) : null;
    if (nx !== null && ny !== null) return nx - ny;
    if (nx !== null) return -1;
    if (ny !== null) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * True only when `offered` is a valid version strictly newer than `running` (semantic versioning
 * order): a feed that offers the same version, an older one, or garbage never installs anything.
 */
export function isNewer(running: string, offered: string): boolean {
  const a = parseSemver(running);
  const b = parseSemver(offered);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) {
    const diff = (b.core[i] ?? 0) - (a.core[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return comparePre(b.pre, a.pre) > 0;
}

/** An operation of this desk still owed the gateway's final answer, as the clerk would name it. */
export interface BusyEntry {
  /** The journal's words for it ("refund", "capture"), and the order it acts on if any. */
  what: string;
  orderId: string | null;
}

export interface InFlightNow {
  entries: readonly BusyEntry[];
  /** Batches sending rows right now, by file name. */
  batches: readonly string[];
}

export type InstallDecision = { allowed: true } | { allowed: false; reason: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function describeEntries(entries: readonly BusyEntry[]): string {
  const [first] = entries;
  if (entries.length === 1 && first) {
    return `a ${first.what}${first.orderId ? ` of order ${first.orderId}` : ''} is waiting for the gateway's final answer`;
  }
  return `${plural(entries.length, 'operation', 'operations')} are waiting for the gateway's final answer`;
}

function describeBatches(batches: readonly string[]): string {
  const [first] = batches;
  if (batches.length === 1 && first) return `the batch ${first} is running`;
  return `${plural(batches.length, 'batch', 'batches')} are running`;
}

/**
 * Installing quits Paydesk: allowed only when nothing of this desk is in flight, otherwise the
 * sentence says what is and what to do (wait, or pause the batch).
 */
export function installDecision(now: InFlightNow): InstallDecision {
  const parts: string[] = [];
  if (now.entries.length > 0) parts.push(describeEntries(now.entries));
  if (now.batches.length > 0) parts.push(describeBatches(now.batches));
  if (parts.length === 0) return { allowed: true };
  const what = parts.join(' and ');
  const count = now.entries.length + now.batches.length;
  const wait =
    now.batches.length > 0
      ? 'Install once the batch has finished or is paused (Batch screen) and every answer is in.'
      : now.entries.length === 1
        ? 'Install once its answer is in.'
        : 'Install once their answers are in.';
  return {
    allowed: false,
    reason: `Not now: ${what}. Restarting would interrupt ${count === 1 ? 'it' : 'them'}. ${wait}`,
  };
}
