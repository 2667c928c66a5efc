// The team journal in the frame: who is signed in to it (login, group, desk) in the header, and a
// banner while its database cannot be reached or refuses this desk. The banner goes by itself
// once the database answers again (the session is asked again every few seconds meanwhile).

import { hrefOf } from '../route';
import { useSession } from '../session';

export function TeamNotice() {
  const { data } = useSession();
  if (!data || data.journal !== 'team' || data.reachable) return null;
  return (
    <div className="notice notice-error team-notice" role="alert">
      <strong>The team journal cannot be used right now.</strong>
      <p>{data.problem}</p>
      <p>
        Meanwhile orders can be looked up; nothing that moves money is sent, and Paydesk does not
        write this desk&apos;s own journal instead (that would split the team&apos;s journal). This
        notice goes when the database answers again; no restart is needed. Settings are in{' '}
        <a href={hrefOf({ screen: 'team-journal' })}>Settings → Team journal</a>.
      </p>
    </div>
  );
}

export function SignedInAs({ operator }: { operator: string | undefined }) {
  const { data } = useSession();
  if (data?.journal === 'team') {
    const groups = data.groups.length ? data.groups.join(', ') : 'no Paydesk group';
    return (
      <span className="operator">
        Team journal: {data.login} ({data.reachable ? groups : 'not reachable'}), desk {data.desk}
      </span>
    );
  }
  if (!operator) return null;
  return <span className="operator">Signed in as {operator}</span>;
}
