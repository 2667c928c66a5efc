// Orders this desk looked up or acted on, so support finds an order again without its exact id:
// one row per order and profile, refreshed at every lookup or action, newest first, searched by
// the shop's id, the orderid, the customer's e-mail or the card's last four digits. It holds
// what the gateway's status showed, never more of the card than its last four digits.

import type Database from 'better-sqlite3';

import type { Db } from './database';
import { withoutFsync } from './durability';

export interface RecentOrder {
  profileId: string;
  orderId: string;
  clientOrderId: string | null;
  email: string | null;
  lastFour: string | null;
  transactionType: string | null;
  /** Major-unit text as the gateway wrote it. */
  amount: string | null;
  currency: string | null;
  stateLabel: string | null;
  seenAt: string;
}

interface Row {
  profile_id: string;
  orderid: string;
  client_orderid: string | null;
  email: string | null;
  last_four: string | null;
  transaction_type: string | null;
  amount: string | null;
  currency: string | null;
  state_label: string | null;
  seen_at: string;
}

const toRecent = (r: Row): RecentOrder => ({
  profileId: r.profile_id,
  orderId: r.orderid,
  clientOrderId: r.client_orderid,
  email: r.email,
  lastFour: r.last_four,
  transactionType: r.transaction_type,
  amount: r.amount,
  currency: r.currency,
  stateLabel: r.state_label,
  seenAt: r.seen_at,
});

export class RecentOrders {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private upsert?: Database.Statement;

  /**
   * Records (or refreshes) an order as seen now. A convenience list, so its commit does not
   * wait for the disk (durability.ts): a power cut may forget the last few looked up.
   */
  seen(order: Omit<RecentOrder, 'seenAt'>): void {
    const lastFour = order.lastFour && /^\d{4}$/.test(order.lastFour) ? order.lastFour : null;
    this.upsert ??= this.db.prepare(
      `INSERT INTO recent_orders (profile_id, orderid, client_orderid, email, last_four,
           transaction_type, amount, currency, state_label, seen_at)
         VALUES (@profileId, @orderId, @clientOrderId, @email, @lastFour, @transactionType,
           @amount, @currency, @stateLabel, @seenAt)
         ON CONFLICT (profile_id, orderid) DO UPDATE SET
           client_orderid = COALESCE(excluded.client_orderid, client_orderid),
           email = COALESCE(excluded.email, email),
           last_four = COALESCE(excluded.last_four, last_four),
           transaction_type = COALESCE(excluded.transaction_type, transaction_type),
           amount = COALESCE(excluded.amount, amount),
           currency = COALESCE(excluded.currency, currency),
           state_label = COALESCE(excluded.state_label, state_label),
           seen_at = excluded.seen_at`,
    );
    const upsert = this.upsert;
    withoutFsync(this.db, () =>
      upsert.run({ ...order, lastFour, seenAt: this.now().toISOString() }),
    );
  }

  /**
   * Newest first. `query` matches the shop's id, the orderid or the e-mail in part (any case),
   * or the card's last four digits exactly.
   */
  list(profileId: string, query = '', limit = 20): RecentOrder[] {
    const q = query.trim();
    const where = q
      ? `AND (client_orderid LIKE @like ESCAPE '\\' COLLATE NOCASE OR orderid LIKE @like ESCAPE '\\'
           OR email LIKE @like ESCAPE '\\' COLLATE NOCASE OR last_four = @q)`
      : '';
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = this.db
      .prepare(
        `SELECT * FROM recent_orders WHERE profile_id = @profileId ${where}
         ORDER BY seen_at DESC, rowid DESC LIMIT @limit`,
      )
      .all({ profileId, q, like, limit: Math.max(1, Math.min(limit, 200)) }) as Row[];
    return rows.map(toRecent);
  }
}
