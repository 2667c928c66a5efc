// What the person's role (or a read-only database) does not allow: the controls stay in view,
// disabled by one fieldset, under one line that says why. Links and reading still work.

import type { ReactNode } from 'react';

import { useAllowed, type Allowed } from '../session';

export function RoleReason({ reason, id }: { reason: string; id?: string }) {
  return (
    <p className="role-reason" role="note" {...(id ? { id } : {})}>
      {reason}
    </p>
  );
}

export function RoleFence({ need, children }: { need: keyof Allowed; children: ReactNode }) {
  const allowance = useAllowed()[need];
  if (allowance.allowed) return <>{children}</>;
  return (
    <>
      <RoleReason reason={allowance.reason} />
      <fieldset className="role-fence" disabled aria-label={allowance.reason}>
        {children}
      </fieldset>
    </>
  );
}
