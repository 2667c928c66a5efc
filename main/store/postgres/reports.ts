// The daily close on a team's PostgreSQL (store/journal/summary.ts says what it counts and how a
// day is bucketed): the same grouping as the desk's SQLite, the days given as three arrays and
// joined to the journal by range over the journal_report index (migration 6), which includes
// every column the query reads. Sums of bigint are numeric in PostgreSQL: they come back as text
// and are read as bigint, never as a float.

import type pg from 'pg';

import {
  checkDays,
  KIND_SQL,
  lineOfRow,
  OUTCOME_SQL,
  sortLines,
  SUMMARY_ACTIONS,
  type ReportLine,
  type SummaryQuery,
  type SummaryRow,
} from '../journal/summary';

const SUMMARY_SQL = `
  WITH days AS (
    SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS d(day, lo, hi)
  )
  SELECT d.day AS day, j.currency AS currency, ${KIND_SQL} AS kind, j.operator AS operator,
         ${OUTCOME_SQL} AS outcome, count(*)::bigint::text AS count,
         sum(j.amount_minor)::text AS amount,
         (count(*) - count(j.amount_minor))::bigint::text AS without_amount
    FROM days d
    JOIN paydesk.journal j ON j.created_at >= d.lo AND j.created_at < d.hi
   WHERE j.action = ANY($4::text[]) AND ($5::text IS NULL OR j.profile_id = $5)
   GROUP BY 1, 2, 3, 4, 5`;

/** The pool's query, or one client's: whatever the journal runs queries on. */
type Queryable = Pick<pg.Pool, 'query'>;

export async function summarise(db: Queryable, query: SummaryQuery): Promise<ReportLine[]> {
  checkDays(query.days);
  const { rows } = await db.query<SummaryRow>(SUMMARY_SQL, [
    query.days.map((d) => d.day),
    query.days.map((d) => d.from),
    query.days.map((d) => d.to),
    [...SUMMARY_ACTIONS],
    query.profileId ?? null,
  ]);
  return sortLines(rows.map(lineOfRow));
}
