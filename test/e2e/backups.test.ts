// Backups in Chromium against the real services: Settings -> Backups backs up and restores (the
// one confirmation, a restart, the notice of what was restored and where the old file is); a
// journal found empty at start stops the app with the latest backup offered, nothing changed
// until the person restores it. The folder is chosen with the system's picker (the harness
// answers it) or typed; one that does not exist is refused, naming it. With
// PAYDESK_SHOTS=<folder>: backups.png, backups-folder.png and journal-stop.png.

import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, expect, it } from 'vitest';

import { stableScreenshot } from '../harness/fixed-clock';
import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';
import {
  backUpFromSettings,
  deskWithEmptiedJournal,
  journalStop,
  shootBackups,
  shootJournalStop,
} from './shots/backups';

const SHOTS = process.env.PAYDESK_SHOTS;
let h: Harness | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(closeSharedBrowser);

it('backs up from Settings and restores a backup through the confirmation and a restart', async () => {
  h = await startHarness();
  const { page } = h;
  await backUpFromSettings(h);
  await page.getByRole('cell', { name: /^paydesk-.*\.sqlite$/ }).waitFor();
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await shootBackups(h, SHOTS);
  }

  await page.getByRole('button', { name: 'Restore…' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Restore this backup?' });
  // An admin act's confirmation: the focus starts on Cancel.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await dialog.getByRole('button', { name: 'Restore and restart' }).click();
  await page.getByText(/^Restore chosen\./).waitFor();
  await h.restarted();
  const restored = page.getByText(/^Restored .*paydesk-.*\.sqlite\./);
  await restored.waitFor();
  expect(await page.getByRole('status').filter({ has: restored }).textContent()).toMatch(
    /The file it replaced is kept at .*paydesk\.sqlite\.before-restore-/,
  );
});

it('chooses the folder with the picker, and refuses a typed folder that does not exist, naming it', async () => {
  h = await startHarness();
  const { page } = h;
  const share = mkdtempSync(join(tmpdir(), 'paydesk-e2e-share-'));
  dirs.push(share);
  await h.open('#/backups');
  const field = page.getByRole('textbox', { name: 'Backup folder' });
  await expect.poll(() => field.inputValue()).toBe(join(h.dataDir, 'backups'));

  // Cancelled: nothing changes.
  h.folderPicker.answer = null;
  await page.getByRole('button', { name: 'Choose folder…' }).click();
  await expect.poll(() => h!.folderPicker.asked).toEqual([join(h.dataDir, 'backups')]);
  expect(await field.inputValue()).toBe(join(h.dataDir, 'backups'));

  h.folderPicker.answer = share;
  await page.getByRole('button', { name: 'Choose folder…' }).click();
  await page.getByText(`Backups now go to ${share}.`).waitFor();
  expect(await field.inputValue()).toBe(share);
  await page.getByRole('button', { name: 'Back up now' }).click();
  await page.getByText(/^Backed up: paydesk-.*checked whole\.$/).waitFor();
  expect(h.services.backups.status().backups[0]?.path.startsWith(share)).toBe(true);

  const missing = join(share, 'not-there');
  await field.fill(missing);
  await page.getByRole('button', { name: 'Use this folder' }).click();
  await page
    .getByText(
      `The folder ${missing} does not exist. Make it first (or connect the disk or network share it is on), then choose it again.`,
    )
    .waitFor();
  expect(h.services.backups.folder).toBe(share);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await stableScreenshot(page, { path: join(SHOTS, 'backups-folder.png'), fullPage: true });
  }
});

it('stops on an emptied journal with the latest backup offered, and restores it when asked', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-e2e-stop-'));
  dirs.push(dataDir);
  h = await deskWithEmptiedJournal(dataDir);
  const { page } = h;
  const stop = journalStop(page);
  await stop.waitFor();
  const said = await stop.innerText();
  expect(said).toContain('has no bytes, although Paydesk had a journal in this folder');
  expect(said).toContain('Nothing has been changed or sent until you choose');
  // Nothing was changed: the file is still empty while the app waits.
  expect(statSync(join(dataDir, 'paydesk.sqlite')).size).toBe(0);

  await stop.getByRole('button', { name: /^Restore the backup of / }).click();
  await page
    .getByRole('dialog', { name: 'Restore the latest backup?' })
    .getByRole('button', { name: 'Restore and restart' })
    .click();
  await h.restarted();
  await page.getByText(/^Restored .*paydesk-.*\.sqlite\./).waitFor();
  expect(await journalStop(page).count()).toBe(0);
  expect(statSync(join(dataDir, 'paydesk.sqlite')).size).toBeGreaterThan(0);
  expect((await h.services.profiles.list()).map((p) => p.name)).toEqual(['Sandbox']);

  if (SHOTS) {
    const again = mkdtempSync(join(tmpdir(), 'paydesk-e2e-stop-'));
    dirs.push(again);
    await shootJournalStop(again, SHOTS);
  }
});
