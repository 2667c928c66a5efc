// What this person may do here, for the screens to show only that: on the desk's own journal
// everything (no one else shares it); on a team journal what their Paydesk group allows (support
// looks up, finance moves money, admins change profiles and keys). The screen is the courtesy,
// the database the guard: when it refuses anyway, the screen shows its sentence. A read-only
// local database allows neither, for the same reason: nothing may be sent that the journal
// cannot record first.

import { useQuery } from '@tanstack/react-query';

import type { SessionData } from '../../common/team-contract';
import { paydesk, unwrap } from './api';
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

export type Allowance = { allowed: true } | { allowed: false; reason: string };

export interface Allowed {
  /** Capture, void, refund, payouts, rebill, subscriptions, links, batches, settling by hand. */
  money: Allowance;
  /** Changing profiles and keys. */
  admin: Allowance;
}

const FINANCE = 'paydesk_finance';
const ADMIN = 'paydesk_admin';

function groupsText(session: SessionData): string {
  return session.groups.length === 0 ? 'in no Paydesk group' : `in ${session.groups.join(' and ')}`;
}

/** The allowances for a session and the local store's state; pure, so it is tested alone. */
export function allowedFor(
  session: SessionData | undefined,
  storeWritable: boolean | undefined,
): Allowed {
  if (storeWritable === false) {
    const reason =
      'Paydesk is read-only (its database cannot be written): nothing is sent or changed.';
    return { money: { allowed: false, reason }, admin: { allowed: false, reason } };
  }
  if (!session || session.journal === 'local')
    return { money: { allowed: true }, admin: { allowed: true } };
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
    ? { allowed: true }
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

export function useAllowed(): Allowed {
  const session = useSession();
  const status = useAppStatus();
  return allowedFor(session.data, status.data?.store.writable);
}
