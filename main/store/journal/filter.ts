// What the Journal screen's filter means, said once for both stores: each field of a
// JournalFilter and the condition it puts on the journal's columns (FILTER_FIELDS). The desk's
// SQLite (journal-pages.ts) and a team's PostgreSQL (postgres/journal.ts) only render these
// conditions in their own SQL (a FilterDialect: how a value is bound, how case is ignored, how
// a time is compared, how a prefix is matched), so a field cannot mean one thing alone and
// another on a team. A field added to JournalFilter without its condition here does not compile.

import { CUSTOMER_LINK_OPERATIONS } from '../../../common/journal-actions';
import { codesByExponent, withoutThousands } from '../../../common/money';
import { FILTER_TIME_HINT, parseFilterTime } from '../../../common/time';
import { IN_FLIGHT, JournalError, type JournalState } from './types';

export interface JournalFilter {
  /**
   * The start of any id an entry carries (the whole id included), letter case as written: its
   * own client_orderid and orderid, and the target order's orderid and shop id (client_orderid).
   * "1003" finds orderid 1003 and 100345; "demo-sale-10" finds demo-sale-1002 and -1011.
   */
  orderRef?: string;
  /** Part of the customer's e-mail ("maria" finds Maria.Lopez@example.com), ignoring ASCII case. */
  email?: string;
  /** The card's last four digits, where the entry knows the card (card_last_four). */
  cardLastFour?: string;
  /**
   * An amount as a person writes it ("14.25"), read in each currency with that currency's
   * decimals: 14.25 is 1425 minor units of EUR and 14250 of KWD, and no JPY amount (JPY has no
   * decimals). Exactly this amount; amountMin and amountMax bound it instead (inclusive).
   */
  amount?: string;
  amountMin?: string;
  amountMax?: string;
  /** The entry's currency code (EUR), ignoring case. */
  currency?: string;
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
  /** One of the columns starts with the value, trimmed (letter case as written). */
  | { startsWith: readonly string[] }
  /** The column holds the value, trimmed, ignoring the case of ASCII letters. */
  | { contains: string }
  /** amount_minor is the amount (exact) or within amountMin..amountMax (range), per currency. */
  | { amount: 'exact' | 'range' }
  /** The column is at or after (>=), or before (<), the value read as a time. */
  | { time: 'created_at'; compare: '>=' | '<' }
  /** A flag: when set, this condition, whatever its value. */
  | { when: string };

/** Every filter field's condition, in the order the clauses are written. */
export const FILTER_FIELDS = {
  orderRef: {
    startsWith: ['orderid', 'target_orderid', 'client_orderid', 'target_client_orderid'],
  },
  // SQLite's LIKE and PostgreSQL's lower() both fold ASCII letters, as e-mail addresses are.
  email: { contains: 'email' },
  cardLastFour: { equals: ['card_last_four'], trim: true },
  amount: { amount: 'exact' },
  // Both bounds make one condition (written at the first of them), so a range is one walk of
  // the amount's index per currency group, not two.
  amountMin: { amount: 'range' },
  amountMax: { amount: 'range' },
  currency: { equals: ['currency'], trim: true, ignoreCase: true },
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
  /** The placeholder for a value bound under this name (named or positional). */
  bind(name: string, value: string): string;
  /** `column = placeholder`, ignoring the case of ASCII letters. */
  equalsIgnoringCase(column: string, placeholder: string): string;
  /** A placeholder read as a point in time, comparable with created_at. */
  time(placeholder: string): string;
  /** A placeholder read as an integer, comparable with amount_minor. */
  integer(placeholder: string): string;
  /**
   * The column starts with `value`, every character of it taken literally (a `%`, `_`, `*` or
   * `?` in it is no wildcard), letter case as written, in a form an index on the column serves.
   */
  startsWith(column: string, name: string, value: string): string;
  /** `column LIKE placeholder ESCAPE '\'`, ignoring the case of ASCII letters. */
  likeIgnoringCase(column: string, placeholder: string): string;
}

/** LIKE's wildcards (and its escape character) taken literally, escaped with a backslash. */
export const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

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
  let rangeWritten = false;
  for (const [name, condition] of Object.entries(FILTER_FIELDS) as [
    keyof JournalFilter,
    Condition,
  ][]) {
    const value = filter[name];
    // Nothing, or only spaces: no condition (a blank id would otherwise start every id).
    if (!value || (typeof value === 'string' && value.trim() === '')) continue;
    if ('when' in condition) {
      clauses.push(condition.when);
    } else if ('time' in condition) {
      const p = dialect.time(dialect.bind(name, isoTime(name, String(value))));
      clauses.push(`${condition.time} ${condition.compare} ${p}`);
    } else if ('amount' in condition) {
      if (condition.amount === 'exact') clauses.push(amountClause(dialect, value as string));
      else if (!rangeWritten) {
        rangeWritten = true;
        clauses.push(rangeClause(dialect, filter.amountMin, filter.amountMax));
      }
    } else if ('startsWith' in condition) {
      const text = String(value).trim();
      const each = condition.startsWith.map((column) => dialect.startsWith(column, name, text));
      clauses.push(`(${each.join(' OR ')})`);
    } else if ('contains' in condition) {
      const p = dialect.bind(name, `%${escapeLike(String(value).trim())}%`);
      clauses.push(dialect.likeIgnoringCase(condition.contains, p));
    } else {
      const text = condition.trim ? String(value).trim() : String(value);
      if (name === 'cardLastFour' && !/^\d{4}$/.test(text))
        throw new JournalError(
          `The journal filter's last four digits (${text}) are not four digits: write the card's last four, such as 1111.`,
        );
      const p = dialect.bind(name, text);
      const each = condition.equals.map((column) =>
        condition.ignoreCase ? dialect.equalsIgnoringCase(column, p) : `${column} = ${p}`,
      );
      clauses.push(each.length > 1 ? `(${each.join(' OR ')})` : each[0]!);
    }
  }
  return clauses;
}

// ---- amounts ----------------------------------------------------------------------------

/** Each number of decimals a currency may have, and the SQL that picks its currencies. */
const CURRENCY_GROUPS: readonly { exponent: number; currencies: string }[] = (() => {
  const groups = codesByExponent();
  const quoted = (codes: readonly string[]) => codes.map((c) => `'${c}'`).join(', ');
  const notTwo = [...groups.values()].flat();
  return [
    // An entry without a currency is read as the spec's cents, as currencyExponent does.
    { exponent: 2, currencies: `(currency IS NULL OR currency NOT IN (${quoted(notTwo)}))` },
    ...[...groups].map(([exponent, codes]) => ({
      exponent,
      currencies: `currency IN (${quoted(codes)})`,
    })),
  ];
})();

const AMOUNT_SHAPE = /^(\d{1,13})(?:\.(\d{1,6}))?$/;
const AMOUNT_NAMES = {
  amount: 'amount',
  amountMin: 'smallest amount',
  amountMax: 'largest amount',
};

/** An amount's digits, or a JournalError that says how to write one. */
function amountDigits(name: keyof typeof AMOUNT_NAMES, value: string) {
  const match = AMOUNT_SHAPE.exec(value.trim());
  const plain = withoutThousands(value.trim());
  if (!match && plain !== undefined && AMOUNT_SHAPE.test(plain))
    throw new JournalError(
      `The journal filter's ${AMOUNT_NAMES[name]} (${value}) has thousands separators: write ${plain}.`,
    );
  if (!match)
    throw new JournalError(
      `The journal filter's ${AMOUNT_NAMES[name]} (${value}) is not an amount: write digits with a point for the decimals, such as 14.25.`,
    );
  return { whole: match[1]!, fraction: match[2] ?? '' };
}

/**
 * The amount in minor units of a currency with `exponent` decimals: exactly (undefined when it
 * has more decimals than the currency: no amount of it is that), or as the least minor amount
 * at or above it (a lower bound), or the greatest at or below it (an upper bound).
 */
function minorOf(
  digits: { whole: string; fraction: string },
  exponent: number,
  reading: 'exact' | 'atLeast' | 'atMost',
): bigint | undefined {
  const kept = digits.fraction.slice(0, exponent).padEnd(exponent, '0');
  const floor = BigInt(digits.whole + kept);
  const beyond = /[1-9]/.test(digits.fraction.slice(exponent));
  if (!beyond) return floor;
  return reading === 'exact' ? undefined : reading === 'atLeast' ? floor + 1n : floor;
}

/** One condition per currency group, joined with OR; none can match: a condition never true. */
function perGroup(parts: string[]): string {
  return parts.length ? `(${parts.join(' OR ')})` : '(1 = 0)';
}

function amountClause(dialect: FilterDialect, value: string): string {
  const name = 'amount';
  const digits = amountDigits(name, value);
  const parts: string[] = [];
  for (const { exponent, currencies } of CURRENCY_GROUPS) {
    const minor = minorOf(digits, exponent, 'exact');
    if (minor === undefined) continue;
    const p = dialect.integer(dialect.bind(`${name}${exponent}`, minor.toString()));
    parts.push(`(${currencies} AND amount_minor = ${p})`);
  }
  return perGroup(parts);
}

function rangeClause(dialect: FilterDialect, min?: string, max?: string): string {
  const low = min ? amountDigits('amountMin', min) : undefined;
  const high = max ? amountDigits('amountMax', max) : undefined;
  if (low && high && compareDigits(low, high) > 0)
    throw new JournalError(
      `The journal filter's smallest amount (${min}) is above its largest (${max}): swap them.`,
    );
  const parts: string[] = [];
  for (const { exponent, currencies } of CURRENCY_GROUPS) {
    const bounds: string[] = [];
    if (low) {
      const minor = minorOf(low, exponent, 'atLeast')!;
      bounds.push(
        `amount_minor >= ${dialect.integer(dialect.bind(`amountMin${exponent}`, minor.toString()))}`,
      );
    }
    if (high) {
      const minor = minorOf(high, exponent, 'atMost')!;
      bounds.push(
        `amount_minor <= ${dialect.integer(dialect.bind(`amountMax${exponent}`, minor.toString()))}`,
      );
    }
    parts.push(`(${currencies} AND ${bounds.join(' AND ')})`);
  }
  return perGroup(parts);
}

/** -1, 0 or 1 as amount a is below, at or above amount b (exact: digits, never a float). */
function compareDigits(
  a: { whole: string; fraction: string },
  b: { whole: string; fraction: string },
): number {
  const width = Math.max(a.fraction.length, b.fraction.length);
  const x = BigInt(a.whole + a.fraction.padEnd(width, '0'));
  const y = BigInt(b.whole + b.fraction.padEnd(width, '0'));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `WHERE ...` of the conditions, or '' for none. */
export const whereOf = (conditions: readonly string[]): string =>
  conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
