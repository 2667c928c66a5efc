// One journal entry by its action id, followed until its final answer: the outcome of every
// money screen (Orders' actions and the other money forms) reads it here.

import { useQuery } from '@tanstack/react-query';

import type { JournalRow } from '../../../common/contract';
import { paydesk, unwrap } from '../api';
import { keys } from '../queries';

/** While an entry waits for its final status it is read again this often. */
export const ENTRY_REFRESH_MS = 1_500;

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
      return state && SETTLED_STATES.has(state) ? false : ENTRY_REFRESH_MS;
    },
    staleTime: 0,
  });
}
