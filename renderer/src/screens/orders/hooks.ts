// The queries of the Orders screen: an order, refreshed until it is final, while any of our
// operations on it is pending (the entry itself is followed by money/journal-entry.ts), and
// while the journal could not be read, so the card shows the journal's figures by itself once
// it is back.

import { useQuery } from '@tanstack/react-query';

import type { OrderViewData } from '../../../../common/contract';
import { ENTRY_REFRESH_MS } from '../../money/journal-entry';
import { paydesk, unwrap } from '../../api';
import { keys } from '../../queries';
import { lookupRequest, refParam, type OrderRef } from './ref';

/** While our own operation waits for its final status the order is refreshed more often. */
const PENDING_REFRESH_MS = ENTRY_REFRESH_MS;
const NOT_FINAL_REFRESH_MS = 3_000;
/** With the journal unreadable, the order is asked again this often until it can be read. */
const JOURNAL_AWAY_REFRESH_MS = 5_000;

export function orderRefreshInterval(order: OrderViewData | undefined): number | false {
  if (!order) return false;
  if (order.pending.length > 0) return PENDING_REFRESH_MS;
  if (order.journalUnreadable !== null) return JOURNAL_AWAY_REFRESH_MS;
  if (!order.final) return NOT_FINAL_REFRESH_MS;
  return false;
}

export function useOrder(profileId: string, ref: OrderRef) {
  return useQuery({
    queryKey: keys.order(profileId, refParam(ref)),
    queryFn: () => unwrap(paydesk().orders.lookup(lookupRequest(profileId, ref))),
    refetchInterval: (query) => orderRefreshInterval(query.state.data),
    // A lookup that failed is shown at once with a "Look up again"; the person decides.
    retry: false,
    staleTime: 0,
  });
}
