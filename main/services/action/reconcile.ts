// At start: every entry whose final word is owed (sending, acknowledged, unsettled) is asked
// about by `status`, never sent again. One the gateway has no record of yet stays unsettled and
// is followed until its quarantine ends. An entry another running process is sending is that
// process's to record; one whose profile's keychain or journal cannot be reached now stays in
// flight for the next start.

import type { GatewayClient } from '../../gateway/client';
import type { JournalEntry, JournalPort } from '../../store/journal/port';
import type { Connections } from '../connection';
import { heldByAnother } from './lease';
import type { Settler } from './settle';

export async function reconcileInFlight(
  journal: JournalPort,
  connections: Connections,
  settler: Settler,
  owner: string,
): Promise<JournalEntry[]> {
  const results: JournalEntry[] = [];
  for (const entry of await journal.inFlight()) {
    if (entry.state === 'sending' && heldByAnother(entry, owner, Date.now())) {
      results.push(entry);
      continue;
    }
    try {
      results.push(await reconcileOne(journal, connections, settler, entry));
    } catch {
      // The journal could not be written now: the entry stays in flight for the next start.
      results.push(entry);
    }
  }
  return results;
}

async function reconcileOne(
  journal: JournalPort,
  connections: Connections,
  settler: Settler,
  entry: JournalEntry,
): Promise<JournalEntry> {
  let client: GatewayClient;
  try {
    ({ client } = await connections.clientFor(entry.profileId));
  } catch {
    // The keychain is unreachable now: the entry stays in flight for the next try.
    return entry;
  }
  const settled = await settler.askAndSettle(client, entry, 1);
  if (settled.kind === 'unsettled')
    return (await journal.get(entry.clientOrderId)) ?? settled.entry;
  return settled.entry;
}
