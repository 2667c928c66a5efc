// The queries of the Orders screen: an order, refreshed until it is final and while any of our
// operations on it is pending; and one journal entry, followed until its final answer.

import { useQuery } from '@tanstack/react-query';

import type { JournalRow, OrderViewData } from '../../../../preload/contract';
import { paydesk, unwrap } from '../../api';
import { keys } from '../../queries';
import { lookupRequest, refParam, type OrderRef } from './ref';

/** While our own operation waits for its final status the order is refreshed more often. */
const PENDING_REFRESH_MS = 1_500;
const NOT_FINAL_REFRESH_MS = 3_000;

export function orderRefreshInterval(order: OrderViewData | undefined): number | false {
  if (!order) return false;
  if (order.pending.length > 0) return PENDING_REFRESH_MS;
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

export const SETTLED_STATES: ReadonlySet<JournalRow['state']> = new Set(['final', 'refused']);

/** One journal entry by its client_orderid, refreshed until it is settled. */
export function useJournalEntry(
  clientOrderId: string | undefined,
  initial: JournalRow | undefined,
  enabled: boolean,
) {
  return useQuery({
    queryKey: [...keys.journal, 'entry', clientOrderId ?? ''],
    queryFn: async () => {
      const page = await unwrap(
        paydesk().journal.search({
          filter: { orderRef: clientOrderId ?? '' },
          offset: 0,
          limit: 10,
        }),
      );
      return page.rows.find((row) => row.clientOrderId === clientOrderId) ?? initial ?? null;
    },
    enabled: enabled && Boolean(clientOrderId),
    refetchInterval: (query) => {
      const state = query.state.data?.state ?? initial?.state;
      return state && SETTLED_STATES.has(state) ? false : PENDING_REFRESH_MS;
    },
    staleTime: 0,
  });
}
