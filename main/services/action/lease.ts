// Who is sending an entry right now. An entry is written with a lease (this process's name and
// an end time) before its request leaves; another process that finds it "sending" under a live
// lease waits for that process's answer and never sends it again.

import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

import type { JournalEntry } from '../../store/journal/port';

/** How long a process may hold an entry it is sending (the 30 s timeout, with room to spare). */
export const DEFAULT_LEASE_MS = 2 * 60_000;

/** This process's name in leases: host, pid, and a random part for each service instance. */
export function leaseOwnerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** True when the lease names a live process other than `owner` and has not run out. */
export function heldByAnother(entry: JournalEntry, owner: string, now: number): boolean {
  if (!entry.leaseOwner || entry.leaseOwner === owner || !entry.leaseUntil) return false;
  if (Date.parse(entry.leaseUntil) <= now) return false;
  // A lease of a process on this computer that no longer runs (killed) is void at once.
  const [host, pid] = entry.leaseOwner.split(':');
  if (host === hostname() && pid && /^\d+$/.test(pid)) {
    try {
      process.kill(Number(pid), 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    }
  }
  return true;
}
