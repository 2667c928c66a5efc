// Who may change where this desk's backups go and put one in place of its database: the main
// process refuses (main/services/backups.ts) and the Backups screen greys (renderer/src/session.ts)
// by this one rule, so both say the same sentence. On the desk's own journal the person is the
// desk's only user: everything. On a team, what changes the desk's data or sends its copies
// elsewhere (choosing the folder, restoring, beginning a new journal) is an admin's, like
// profiles and keys; backing up now only adds the copy the schedule would make, and reading the
// list changes nothing, so both stay everyone's. A read-only database does not fence it:
// restoring a backup is how a damaged one is mended.

import type { SessionData } from './team-contract';

export type Allowance = { allowed: true } | { allowed: false; reason: string };

const ADMIN = 'paydesk_admin';

/** What the person may do with this desk's backups beyond reading them and backing up now. */
export function backupsAllowance(session: SessionData): Allowance {
  if (session.journal === 'local') return { allowed: true };
  if (!session.reachable)
    return {
      allowed: false,
      reason:
        'The team journal cannot be reached, so your role cannot be read: choosing the backup folder and restoring wait until it is back.',
    };
  if (session.groups.includes(ADMIN)) return { allowed: true };
  const groups =
    session.groups.length === 0 ? 'in no Paydesk group' : `in ${session.groups.join(' and ')}`;
  return {
    allowed: false,
    reason: `Your login ${session.login} is ${groups}: only paydesk_admin chooses the backup folder and restores this desk's database. Backing up now and reading the list work for everyone.`,
  };
}
