// One desk at a time on one order. An action takes a transaction-scoped advisory lock on the
// order (its profile and orderid) for the time of its decision and its write-ahead journal
// INSERT, in ONE transaction: the lock is released by the commit that makes the entry visible,
// so the next desk to get the lock already sees the pending entry and counts it. A desk that
// crashes holds nothing: its connection ends, its transaction rolls back, and since its request
// leaves only after that commit, nothing was sent.
//
// Why an advisory lock and not a row lock on an `order_locks` row that names its holder: a row
// written inside the holder's transaction is invisible to every other desk until it commits
// (MVCC), so it cannot say who holds the lock; only a lease committed beforehand could, and
// that is the application-level flag the database lock is meant to replace. The database does
// know who holds an advisory lock: pg_locks gives the holder's backend, and pg_stat_activity
// that backend's login (which every user may read, and nobody can forge) and application_name,
// which the holder sets, for the transaction only, to its desk and action.

import type pg from 'pg';

import { StoreError } from '../errors';

/** First key of every Paydesk order lock ('PDOR'), so other advisory locks cannot collide. */
const LOCK_SPACE = 1346654034;
/** The second key: a 32-bit hash of profile id and orderid, computed by the server. */
const ORDER_KEY = `hashtext($1::text || chr(31) || $2::text)`;

export interface OrderRef {
  profileId: string;
  orderId: string;
}

export interface LockHolder {
  /** The database login of the person holding the lock. */
  login: string;
  /** The holder's desk and action, as that desk announced them (null when it did not). */
  desk: string | null;
  action: string | null;
}

/** A StoreError 'BUSY' (try again), so a desk shows it like any busy store, naming the holder. */
export class OrderBusyError extends StoreError {
  constructor(
    readonly order: OrderRef,
    /** Null when the holder finished before it could be named. */
    readonly holder: LockHolder | null,
  ) {
    super(
      'BUSY',
      holder
        ? `${holder.login}${holder.desk ? ` (desk ${holder.desk})` : ''} is ${holder.action ?? 'working on'} order ${order.orderId} right now; try again when they are done.`
        : `Another desk was working on order ${order.orderId} just now; try again.`,
    );
    this.name = 'OrderBusyError';
  }
}

export interface OrderLockOptions {
  /** This desk's name, shown to a desk that finds the order busy. */
  desk: string;
  /** What this desk is doing, as a verb phrase ("refunding", "capturing"). */
  action: string;
  /** Wait up to this long for the lock instead of being refused at once (default 0). */
  waitMs?: number;
}

const PREFIX = 'Paydesk|';

/** application_name holds 63 bytes of printable ASCII; anything else would be mangled. */
function announcement(desk: string, action: string): string {
  const clean = (s: string) => s.replace(/[^\x20-\x7e]|\|/g, '?');
  return `${PREFIX}${clean(action).slice(0, 24)}|${clean(desk)}`.slice(0, 63);
}

function readAnnouncement(applicationName: string | null): {
  desk: string | null;
  action: string | null;
} {
  if (!applicationName) return { desk: null, action: null };
  if (!applicationName.startsWith(PREFIX)) return { desk: applicationName, action: null };
  const [action = '', ...desk] = applicationName.slice(PREFIX.length).split('|');
  return { desk: desk.join('|') || null, action: action || null };
}

/** Who holds the lock on the order now, if anyone. Needs no transaction. */
export async function orderLockHolder(
  client: pg.ClientBase,
  order: OrderRef,
): Promise<LockHolder | null> {
  const { rows } = await client.query<{ usename: string | null; application_name: string | null }>(
    `SELECT a.usename, a.application_name
       FROM pg_catalog.pg_locks l
       JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
        AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
        AND l.classid::bigint = ${LOCK_SPACE}
        AND l.objid::bigint = (${ORDER_KEY})::bigint & 4294967295
      LIMIT 1`,
    [order.profileId, order.orderId],
  );
  const row = rows[0];
  if (!row) return null;
  return { login: row.usename ?? 'another login', ...readAnnouncement(row.application_name) };
}

function isLockTimeout(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '55P03'
  );
}

/**
 * Runs `work` in one transaction that holds the order's lock; commits what it wrote and returns
 * its result, or rolls back and rethrows. A busy order throws OrderBusyError naming the holder.
 * The client must not be in a transaction already.
 */
export async function withOrderLock<T>(
  client: pg.ClientBase,
  order: OrderRef,
  options: OrderLockOptions,
  work: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  let result: T;
  try {
    // Announced before locking, for this transaction only: whoever finds the order busy reads it.
    await client.query(`SELECT set_config('application_name', $1, true)`, [
      announcement(options.desk, options.action),
    ]);
    let locked: boolean;
    if (options.waitMs && options.waitMs > 0) {
      await client.query(`SELECT set_config('lock_timeout', $1, true)`, [
        `${Math.ceil(options.waitMs)}ms`,
      ]);
      try {
        await client.query(`SELECT pg_advisory_xact_lock(${LOCK_SPACE}, ${ORDER_KEY})`, [
          order.profileId,
          order.orderId,
        ]);
        locked = true;
      } catch (error) {
        if (!isLockTimeout(error)) throw error;
        locked = false;
      }
      await client.query(`SELECT set_config('lock_timeout', '0', true)`).catch(() => undefined);
    } else {
      const { rows } = await client.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_xact_lock(${LOCK_SPACE}, ${ORDER_KEY}) AS locked`,
        [order.profileId, order.orderId],
      );
      locked = rows[0]?.locked === true;
    }
    if (!locked) {
      await client.query('ROLLBACK');
      throw new OrderBusyError(order, await orderLockHolder(client, order));
    }
    result = await work(client);
    await client.query('COMMIT');
  } catch (error) {
    if (!(error instanceof OrderBusyError)) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return result;
}
