// What this person may do here, for the screens to show only that: on the desk's own journal
// everything (no one else shares it); on a team journal what their Paydesk group allows (support
// looks up, finance moves money, admins change profiles and keys). The screen is the courtesy,
// the database the guard: when it refuses anyway, the screen shows its sentence. A read-only
// local database allows neither, for the same reason: nothing may be sent that the journal
// cannot record first.

import { useQuery } from '@tanstack/react-query';

import { backupsAllowance, type Allowance } from '../../common/backup-roles';
import type { SessionData } from '../../common/team-contract';
import { paydesk, unwrap } from './api';
import { useActiveProfileIfAny } from './profile-context';
import { useAppStatus } from './queries';

export const sessionKey = ['session'] as const;

/** Asked again now and then: a team's database that was away is seen back without a restart. */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: () => unwrap(paydesk().session.get({})),
    refetchInterval: (query) => (query.state.data?.reachable === false ? 5_000 : 30_000),
  });
}

export type { Allowance } from '../../common/backup-roles';

export interface Allowed {
  /** Capture, void, refund, payouts, rebill, subscriptions, links, batches, settling by hand. */
  money: Allowance;
  /** Changing profiles and keys. */
  admin: Allowance;
  /**
   * Choosing the backup folder and restoring (common/backup-roles.ts): an admin's on a team, and
   * not fenced by a read-only database, which a restore is how to mend.
   */
  backups: Allowance;
}

const FINANCE = 'paydesk_finance';
const ADMIN = 'paydesk_admin';

function groupsText(session: SessionData): string {
  return session.groups.length === 0 ? 'in no Paydesk group' : `in ${session.groups.join(' and ')}`;
}

/** What the fence needs to know of the profile the person works with (the header's choice). */
export interface ActiveProfileFacts {
  name: string;
  /** Shared by the team (the profile view's `team`); a desk's own profile otherwise. */
  shared: boolean;
  hasControlKey: boolean;
  /** Whether the team shares any profile with this desk yet. */
  teamHasProfiles: boolean;
}

/** What is known so far: a session or store state still being read is not "allowed". */
export interface Known {
  session: SessionData | undefined;
  /** Why the session could not be read, when it could not. */
  sessionError?: unknown;
  storeWritable: boolean | undefined;
  /** Why the app's status could not be read, when it could not. */
  statusError?: unknown;
  /**
   * The header's profile: 'loading' while the list is read, 'none' when there is none; absent
   * for a part shown without the app's profile choice.
   */
  profile?: ActiveProfileFacts | 'loading' | 'none';
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'no answer';

const both = (reason: string): Omit<Allowed, 'backups'> => ({
  money: { allowed: false, reason },
  admin: { allowed: false, reason },
});

/**
 * The allowances for what is known; pure, so it is tested alone. Nothing is allowed until the
 * store's state and the person's session are read: a control enabled while the role is unknown
 * would let a support login press Refund for the seconds a slow database takes to answer.
 */
export function allowedFor(known: Known): Allowed {
  return { ...moneyAndAdmin(known), backups: backupsFor(known) };
}

/** Backups need only who the person is: the database's state does not fence them. */
function backupsFor({ session, sessionError }: Known): Allowance {
  if (session) return backupsAllowance(session);
  if (sessionError !== undefined)
    return {
      allowed: false,
      reason: `Paydesk could not read who you are (${messageOf(sessionError)}): the backup folder and restoring wait until it can. It asks again in a few seconds.`,
    };
  return { allowed: false, reason: 'Reading who you are and what you may do here…' };
}

function moneyAndAdmin(known: Known): Omit<Allowed, 'backups'> {
  const { session, storeWritable } = known;
  if (storeWritable === false)
    return both(
      'Paydesk is read-only (its database cannot be written): nothing is sent or changed.',
    );
  if (known.statusError !== undefined && storeWritable === undefined)
    return both(
      `Paydesk could not read its own state (${messageOf(known.statusError)}): nothing is sent or changed until it can. Restart Paydesk; if this stays, send its log to support.`,
    );
  if (known.sessionError !== undefined && !session)
    return both(
      `Paydesk could not read who you are (${messageOf(known.sessionError)}): nothing is sent or changed until it can. It asks again in a few seconds.`,
    );
  if (!session || storeWritable === undefined)
    return both('Reading who you are and what you may do here…');
  if (session.journal === 'local') return { money: { allowed: true }, admin: { allowed: true } };
  if (!session.reachable) {
    const reason =
      'The team journal cannot be reached: nothing that moves money is sent until it is back.';
    return {
      money: { allowed: false, reason },
      admin: {
        allowed: false,
        reason:
          'The team journal cannot be reached, so your role cannot be read: changes wait until it is back.',
      },
    };
  }
  const who = `Your login ${session.login} is ${groupsText(session)}`;
  const money: Allowance = session.groups.includes(FINANCE)
    ? known.profile === 'loading'
      ? { allowed: false, reason: 'Reading the team’s profiles…' }
      : teamProfileMoney(known.profile)
    : {
        allowed: false,
        reason: session.groups.includes(ADMIN)
          ? `${who}: profiles and keys, no money (that is paydesk_finance).`
          : `${who}: looking up only.`,
      };
  const admin: Allowance = session.groups.includes(ADMIN)
    ? { allowed: true }
    : { allowed: false, reason: `${who}: only paydesk_admin changes profiles and keys.` };
  return { money, admin };
}

/**
 * On a team only the team's shared profiles can be journaled (the team journal references them),
 * and a shared profile signs with the control key this desk holds for it: said before anything
 * is filled in or confirmed, with the way forward.
 */
function teamProfileMoney(profile: ActiveProfileFacts | 'none' | undefined): Allowance {
  if (profile === undefined) return { allowed: true };
  if (profile === 'none')
    return {
      allowed: false,
      reason:
        'Nothing can be sent yet: the team has no shared profile on this desk. An admin of your team creates one (Profiles → New profile); then enter its control key here.',
    };
  if (!profile.shared) {
    const own = `"${profile.name}" is this desk's own profile, and the team journal records only the team's shared profiles: nothing can be sent on it here.`;
    return {
      allowed: false,
      reason: profile.teamHasProfiles
        ? `${own} Choose one of the team's profiles in the header; to practise, ask an admin to share the team's sandbox (see the team guide), or stop using the team journal in Settings.`
        : `${own} Your team has no shared profile yet: nothing can be sent until an admin creates one (Profiles → New profile) and you enter its control key on this desk. To practise meanwhile, ask an admin to share the team's sandbox (see the team guide).`,
    };
  }
  if (!profile.hasControlKey)
    return {
      allowed: false,
      reason: `This desk holds no control key for "${profile.name}": nothing can be sent on it yet. Enter the key your admin gives you on Profiles, in “Control key for this desk” (it stays in this computer's keychain).`,
    };
  return { allowed: true };
}

export function useAllowed(): Allowed {
  const session = useSession();
  const status = useAppStatus();
  const profiles = useActiveProfileIfAny();
  return allowedFor({
    session: session.data,
    sessionError: session.error ?? undefined,
    storeWritable: status.data?.store.writable,
    statusError: status.error ?? undefined,
    profile: !profiles
      ? undefined
      : profiles.loading
        ? 'loading'
        : profiles.active
          ? {
              name: profiles.active.name,
              shared: profiles.active.team !== undefined,
              hasControlKey: profiles.active.hasControlKey,
              teamHasProfiles: profiles.profiles.some((p) => p.team !== undefined),
            }
          : 'none',
  });
}
