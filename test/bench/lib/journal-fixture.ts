// The journal of rows 6 and 7: a temporary SQLite file made by the app's own migrations and
// filled with N believable entries (two years, newest last) by one prepared INSERT in one
// transaction. Made once per run and shared; removed at the end.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase } from '../../../main/store/sqlite/database';
import { Profiles } from '../../../main/store/sqlite/profiles';

export interface JournalFixture {
  file: string;
  entries: number;
  /** When the newest entry was made; the filters' "last 30 days" count from here. */
  newest: Date;
}

const SPAN_MS = 730 * 86_400_000;
let current: { fixture: JournalFixture; dir: string } | undefined;

export function journalFixture(entries: number, log: (m: string) => void): JournalFixture {
  if (current?.fixture.entries === entries) return current.fixture;
  closeJournalFixture();
  const made = makeJournal(entries, log);
  current = { fixture: made.fixture, dir: made.dir };
  return current.fixture;
}

/** A journal of its own, beside the shared one (a smaller one to compare with); close it. */
export function separateJournalFixture(
  entries: number,
  log: (m: string) => void,
): JournalFixture & { close(): void } {
  const made = makeJournal(entries, log);
  return { ...made.fixture, close: () => rmSync(made.dir, { recursive: true, force: true }) };
}

function makeJournal(
  entries: number,
  log: (m: string) => void,
): { fixture: JournalFixture; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-journal-'));
  const file = join(dir, 'paydesk.sqlite');
  const db = openDatabase(file);
  const started = performance.now();
  const profileId = new Profiles(db).create({
    name: 'Bench',
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:9/paynet',
    endpointId: '1111',
    login: 'bench',
  }).id;
  const insert = db.prepare(
    `INSERT INTO journal (client_orderid, profile_id, operator, operation, target_orderid, orderid,
       amount_minor, currency, reason, note, email, summary, state, status, created_at, updated_at, final_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const newest = new Date();
  const operations = ['RETURN', 'RETURN', 'CAPTURE', 'VOID'] as const;
  const statuses = ['approved', 'approved', 'approved', 'approved', 'declined', 'error', null];
  db.transaction(() => {
    for (let i = 0; i < entries; i++) {
      const at = new Date(newest.getTime() - SPAN_MS + Math.floor((SPAN_MS * (i + 1)) / entries));
      const iso = at.toISOString();
      const operation = operations[i % operations.length] ?? 'RETURN';
      const status = statuses[i % statuses.length] ?? null;
      const target = String(10_000_000 + i);
      const amount = operation === 'VOID' ? null : 100 + ((i * 7919) % 100_000);
      const clientOrderId = `pd-bench-${i.toString(36)}`;
      insert.run(
        clientOrderId,
        profileId,
        i % 3 === 0 ? 'ann' : 'bob',
        operation,
        target,
        String(20_000_000 + i),
        amount,
        amount === null ? null : 'EUR',
        operation === 'CAPTURE' ? null : 'Damaged',
        i % 10 === 0 ? 'Customer called; see ticket' : null,
        i % 5 === 0 ? `customer${i % 9973}@example.com` : null,
        JSON.stringify({ client_orderid: clientOrderId, orderid: target, comment: 'Damaged' }),
        status === null ? 'acknowledged' : 'final',
        status,
        iso,
        iso,
        status === null ? null : iso,
      );
    }
  })();
  db.close();
  log(
    `journal fixture: ${entries.toLocaleString('en-US')} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { fixture: { file, entries, newest }, dir };
}

export function closeJournalFixture(): void {
  if (current) rmSync(current.dir, { recursive: true, force: true });
  current = undefined;
}
