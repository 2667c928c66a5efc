// Journal -> Export CSV as the window asks for it (the bridge's handler, the save dialog as a
// function): the export's worker thread starts when the export is asked for, while the person is
// still in the dialog, and none is left running once the dialog has closed, whether they
// cancelled or saved. The journal's span of ids is that of a large journal (the worker starts
// from the span), its entries few.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import { writeContent, type FileContent } from '../../main/files';
import { createHandlers, type DesktopDeps } from '../../main/handlers';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { exportThreadsRunning } from '../../main/store/sqlite/journal-export-thread';
import { Profiles } from '../../main/store/sqlite/profiles';

/** Ids this far apart: the span of a journal large enough to share its export. */
const ID_STEP = 1_000;
const ENTRIES = 30;

let dataDir: string;
let services: PaydeskServices | undefined;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-export-dialog-'));
  services = await PaydeskServices.start({
    dataDir,
    secrets: new MemorySecretStore(),
    operator: 'ann',
    sandboxDelayMs: 50,
    backups: 'off',
  });
  const profileId = new Profiles(services.db).create({
    name: 'North shop',
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:9/paynet',
    endpointId: '1001',
    login: 'north',
  }).id;
  const insert = services.db.prepare(
    `INSERT INTO journal (id, client_orderid, profile_id, operator, operation, amount_minor,
       currency, summary, state, status, created_at, updated_at, final_at)
     VALUES (?, ?, ?, 'ann', 'RETURN', 1250, 'EUR', '{}', 'final', 'approved', ?, ?, ?)`,
  );
  for (let i = 1; i <= ENTRIES; i++) {
    const at = new Date(Date.UTC(2026, 9, i, 12)).toISOString();
    insert.run(1_000_000 + i * ID_STEP, `pd-dialog-${i}`, profileId, at, at, at);
  }
});

afterEach(async () => {
  await services?.close();
  services = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** The handlers with a save dialog that `choose` answers once the worker is running. */
function handlersWith(
  choose: (content: FileContent) => Promise<{ saved: boolean; path?: string }>,
) {
  const deps: DesktopDeps = {
    version: 'test',
    operator: 'ann',
    copyText: () => undefined,
    saveFile: async (_name, content) => {
      // The person is in the dialog: the worker has started meanwhile.
      await vi.waitFor(() => expect(exportThreadsRunning()).toBe(1), { timeout: 20_000 });
      return choose(content);
    },
  };
  return createHandlers(services as PaydeskServices, deps);
}

it('starts the worker while the save dialog is open and leaves none running when it is cancelled', async () => {
  // A file before this one in the same worker may still be ending its export's thread.
  await vi.waitFor(() => expect(exportThreadsRunning()).toBe(0), { timeout: 10_000 });
  const result = await handlersWith(() => Promise.resolve({ saved: false })).journal.exportCsv({
    filter: {},
  });
  expect(result).toEqual({ saved: false, count: 0 });
  await vi.waitFor(() => expect(exportThreadsRunning()).toBe(0), { timeout: 10_000 });
});

it('writes the file and leaves no worker running once it is saved', async () => {
  const path = join(dataDir, 'journal.csv');
  const result = await handlersWith(async (content) => {
    await writeContent(path, content);
    return { saved: true, path };
  }).journal.exportCsv({ filter: {} });
  expect(result).toMatchObject({ saved: true, path, count: ENTRIES });
  const lines = readFileSync(path, 'utf8').trimEnd().split('\r\n');
  expect(lines).toHaveLength(ENTRIES + 1);
  expect(lines[1]).toContain('pd-dialog-30');
  await vi.waitFor(() => expect(exportThreadsRunning()).toBe(0), { timeout: 10_000 });
});
