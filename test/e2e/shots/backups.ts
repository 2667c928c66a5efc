// Screenshots of Settings -> Backups and support (a backup just made, the list, the folder, the
// support bundle) and of the stop a start makes when the journal Paydesk had is found empty, with
// the latest backup offered (npm run screenshots; the browser tests take the same steps).

import { truncateSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { startHarness, type Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

/** Settings -> Backups after "Back up now". */
export async function backUpFromSettings(h: Harness): Promise<void> {
  await h.open('#/backups');
  await h.page.getByRole('heading', { name: 'Backups and support' }).waitFor();
  await h.page.getByRole('button', { name: 'Back up now' }).click();
  await h.page.getByText(/^Backed up: paydesk-.*checked whole\.$/).waitFor();
}

export async function shootBackups(h: Harness, dir: string): Promise<string[]> {
  await backUpFromSettings(h);
  const path = join(dir, 'backups.png');
  await stableScreenshot(h.page, { path, fullPage: true });
  return [path];
}

/**
 * A desk with a journal and a backup, whose database file is then emptied (zero bytes): the
 * harness started again on that folder, on the stop. The caller closes it.
 */
export async function deskWithEmptiedJournal(dataDir: string): Promise<Harness> {
  const first = await startHarness({ dataDir });
  await backUpFromSettings(first);
  const secrets = first.secrets;
  await first.close();
  truncateSync(join(dataDir, 'paydesk.sqlite'), 0);
  const again = await startHarness({ dataDir, secrets });
  await again.open('#/lookup');
  return again;
}

export function journalStop(page: Page) {
  return page.getByRole('alert').filter({ hasText: 'Paydesk stopped: its journal is empty.' });
}

export async function shootJournalStop(dataDir: string, dir: string): Promise<string[]> {
  const h = await deskWithEmptiedJournal(dataDir);
  try {
    await journalStop(h.page).waitFor();
    const path = join(dir, 'journal-stop.png');
    await stableScreenshot(h.page, { path, fullPage: true });
    return [path];
  } finally {
    await h.close();
  }
}
