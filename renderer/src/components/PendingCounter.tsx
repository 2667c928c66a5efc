// The header's count of operations waiting for the gateway's final status, a link to them in
// the Journal. A count Paydesk has not read yet, or could not read, is never shown as 0: until
// the journal answers it says "… pending", and "? pending" when the journal could not be read
// (an earlier count is not shown then: it may have changed since), each with a label that says
// so. A failed read is not retried apart: the count is read again every 5 s anyway.

import { useQuery } from '@tanstack/react-query';

import { paydesk, unwrap } from '../api';
import { keys } from '../queries';
import { hrefOf } from '../route';

const WAITING = "operations waiting for the gateway's final status";

export function PendingCounter() {
  const { data, isError } = useQuery({
    queryKey: [...keys.journal, 'pending-count'],
    queryFn: () =>
      unwrap(paydesk().journal.search({ filter: { pending: true }, offset: 0, limit: 1 })),
    refetchInterval: 5_000,
    retry: false,
  });
  const count = isError ? undefined : data?.total;
  const label =
    count !== undefined
      ? `${count} ${count === 1 ? "operation waiting for the gateway's final status" : WAITING}`
      : isError
        ? `The journal could not be read: the number of ${WAITING} is not known`
        : `Counting the ${WAITING}`;
  return (
    <a
      className={`pending-counter${count !== undefined && count > 0 ? ' has-pending' : ''}`}
      href={hrefOf({ screen: 'journal', param: 'pending' })}
      aria-label={label}
      title={count === undefined ? label : undefined}
    >
      {count ?? (isError ? '?' : '…')} pending
    </a>
  );
}
