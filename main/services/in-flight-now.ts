// What this desk has in flight right now, in the clerk's words: the actions this process is
// deciding, sending or following to their final status, and the batches it is running. An
// update's "Install and restart" waits for nothing else: entries left unsettled by an earlier run
// are asked about at every start, so a restart does not interrupt them.

import type { InFlightNow } from '../update/policy';
import { IN_FLIGHT, type JournalPort } from '../store/journal/port';
import type { ActionPath } from './action/path';
import { wordOf } from './action/settle';
import type { BatchService } from './batch/batch';

export async function inFlightNow(
  path: Pick<ActionPath, 'busy'>,
  journal: Pick<JournalPort, 'get'>,
  batches: Pick<BatchService, 'running'>,
): Promise<InFlightNow> {
  const entries: InFlightNow['entries'][number][] = [];
  for (const id of path.busy()) {
    const entry = await journal.get(id);
    // Not written yet: being decided, about to be sent.
    if (!entry) entries.push({ what: 'operation', orderId: null });
    else if (IN_FLIGHT.includes(entry.state))
      entries.push({ what: wordOf(entry), orderId: entry.targetOrderId ?? entry.orderId });
  }
  return { entries, batches: batches.running() };
}
