// What the Journal screen's filter means, said once for both stores: each field of a
// JournalFilter and the condition it puts on the journal's columns (FILTER_FIELDS). The desk's
// SQLite (journal-pages.ts) and a team's PostgreSQL (postgres/journal.ts) only render these
// conditions in their own SQL (a FilterDialect: how a value is bound, how case is ignored, how
// a time is compared), so a field cannot mean one thing alone and another on a team. A field
// added to JournalFilter without its condition here does not compile.

import { CUSTOMER_LINK_OPERATIONS } from '../../../common/journal-actions';
import { FILTER_TIME_HINT, parseFilterTime } from '../../../common/time';
import { IN_FLIGHT, JournalError, type JournalState } from './types';

export interface JournalFilter {
  /**
   * Matches exactly any id an entry carries: its own client_orderid and orderid, and the
   * target order's orderid and shop id (client_orderid).
   */
  orderRef?: string;
  email?: string;
  status?: string;
  state?: JournalState;
  /**
   * Only money that is moving: entries whose final answer is still owed (sending, acknowledged,
   * unknown), except open links waiting for a customer (common/journal-actions.ts isOpenLink).
   */
  pending?: boolean;
  /** The gateway operation (CAPTURE, RETURN, VOID). */
  operation?: string;
  /** What the clerk did (capture, partial-capture, refund, partial-refund, void, cancel-hold). */
  action?: string;
  profileId?: string;
  /**
   * Times, inclusive from, exclusive to: ISO 8601, a date alone or a date and time; without Z or
   * an offset, in this desk's time zone. Anything else is refused (JournalError).
   */
  from?: string;
  to?: string;
}

/** The same, as SQL both stores read (the values are constants, never a person's input). */
export const IN_FLIGHT_SQL = `state IN (${IN_FLIGHT.map((s) => `'${s}'`).join(', ')})`;

/** Money that is moving: in flight, and not an open link that waits for its customer. */
const PENDING_SQL = `${IN_FLIGHT_SQL} AND NOT (state = 'acknowledged' AND operation IN (${CUSTOMER_LINK_OPERATIONS.map((o) => `'${o}'`).join(', ')}))`;

type Condition =
  /** The value, trimmed, equals one of the columns. */
  | { equals: readonly string[]; trim?: true; ignoreCase?: true }
  /** The column is at or after (>=), or before (<), the value read as a time. */
  | { time: 'created_at'; compare: '>=' | '<' }
  /** A flag: when set, this condition, whatever its value. */
  | { when: string };

/** Every filter field's condition, in the order the clauses are written. */
export const FILTER_FIELDS = {
  orderRef: {
    equals: ['orderid', 'target_orderid', 'client_orderid', 'target_client_orderid'],
    trim: true,
  },
  // SQLite's NOCASE and PostgreSQL's lower() both fold ASCII letters, as e-mail addresses are.
  email: { equals: ['email'], trim: true, ignoreCase: true },
  status: { equals: ['status'] },
  state: { equals: ['state'] },
  operation: { equals: ['operation'] },
  action: { equals: ['action'] },
  profileId: { equals: ['profile_id'] },
  pending: { when: `(${PENDING_SQL})` },
  from: { time: 'created_at', compare: '>=' },
  to: { time: 'created_at', compare: '<' },
} as const satisfies { [K in keyof Required<JournalFilter>]: Condition };

/** How one SQL dialect writes what a condition needs. */
export interface FilterDialect {
  /** The placeholder for a value bound under the field's name (named or positional). */
  bind(field: keyof JournalFilter, value: string): string;
  /** `column = placeholder`, ignoring the case of ASCII letters. */
  equalsIgnoringCase(column: string, placeholder: string): string;
  /** A placeholder read as a point in time, comparable with created_at. */
  time(placeholder: string): string;
}

/**
 * A time as both stores compare it: UTC ISO (SQLite compares created_at as text, PostgreSQL as
 * timestamptz, and they agree only on this form). A date, or a date and time, without a zone is
 * read in this desk's time zone (common/time.ts). Anything else is refused with a sentence: as
 * text SQLite would compare it letter by letter, and PostgreSQL would fail on it.
 */
function isoTime(name: string, value: string): string {
  const time = parseFilterTime(value);
  if (!time)
    throw new JournalError(
      `The journal filter's ${name === 'from' ? 'From' : 'To'} (${value}) is not a time: write ${FILTER_TIME_HINT}.`,
    );
  return time.toISOString();
}

/** The filter's conditions in the dialect's SQL, to be joined with AND (none: every entry). */
export function filterConditions(filter: JournalFilter, dialect: FilterDialect): string[] {
  const clauses: string[] = [];
  for (const [name, condition] of Object.entries(FILTER_FIELDS) as [
    keyof JournalFilter,
    Condition,
  ][]) {
    const value = filter[name];
    if (!value) continue;
    if ('when' in condition) {
      clauses.push(condition.when);
    } else if ('time' in condition) {
      const p = dialect.time(dialect.bind(name, isoTime(name, String(value))));
      clauses.push(`${condition.time} ${condition.compare} ${p}`);
    } else {
      const p = dialect.bind(name, condition.trim ? String(value).trim() : String(value));
      const each = condition.equals.map((column) =>
        condition.ignoreCase ? dialect.equalsIgnoringCase(column, p) : `${column} = ${p}`,
      );
      clauses.push(each.length > 1 ? `(${each.join(' OR ')})` : each[0]!);
    }
  }
  return clauses;
}

/** `WHERE ...` of the conditions, or '' for none. */
export const whereOf = (conditions: readonly string[]): string =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
