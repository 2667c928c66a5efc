// Migration 13 gives entries written before it the card's last four digits where their stored
// request holds a (masked) card number, a payout's destination or a saved card's number, so the
// Journal's search by the last four finds them; an entry without one stays without.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';

import { openDatabase } from '../../../main/store/sqlite/database';
import { MIGRATIONS } from '../../../main/store/sqlite/migrations';
import { Journal } from '../../../main/store/sqlite/journal';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('finds old entries by the last four of a card their request carried', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-migration-card-'));
  dirs.push(dir);
  const file = join(dir, 'paydesk.sqlite');
  // A desk's file as the version before left it.
  const old = new Database(file);
  for (const sql of MIGRATIONS.slice(0, 12)) old.exec(sql);
  old.pragma('user_version = 12');
  const at = '2026-03-01T00:00:00.000Z';
  old
    .prepare(
      `INSERT INTO profiles (id, name, environment, base_url, endpoint_id, login, created_at, updated_at)
       VALUES ('p', 'Shop', 'sandbox', 'http://127.0.0.1:9/paynet', '1', 'shop', ?, ?)`,
    )
    .run(at, at);
  const insert = old.prepare(
    `INSERT INTO journal (client_orderid, profile_id, operator, operation, summary, state,
       created_at, updated_at) VALUES (?, 'p', 'ann', ?, ?, 'sending', ?, ?)`,
  );
  insert.run(
    'pd-payout',
    'PAYOUT',
    JSON.stringify({ 'destination-card-no': '411111******1111' }),
    at,
    at,
  );
  insert.run(
    'pd-card',
    'CARDREF',
    JSON.stringify({ credit_card_number: '555555******4444' }),
    at,
    at,
  );
  insert.run(
    'pd-refund',
    'RETURN',
    JSON.stringify({ orderid: '9001', comment: 'card 1234' }),
    at,
    at,
  );
  old.close();

  const db = openDatabase(file);
  try {
    const journal = new Journal(db);
    expect(journal.get('pd-payout')?.cardLastFour).toBe('1111');
    expect(journal.get('pd-card')?.cardLastFour).toBe('4444');
    expect(journal.get('pd-refund')?.cardLastFour).toBeNull();
    expect(journal.search({ cardLastFour: '1111' }).rows.map((e) => e.clientOrderId)).toEqual([
      'pd-payout',
    ]);
  } finally {
    db.close();
  }
});
