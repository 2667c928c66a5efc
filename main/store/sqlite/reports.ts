// The daily close on the desk's SQLite (store/journal/summary.ts says what it counts and how a
// day is bucketed). The days come in as one JSON parameter and are joined to the journal by
// range, so SQLite walks the journal_report index (migration 14) once per day, over that day's
// entries only, without reading the table: the index holds every column the query reads.

import type { Db } from './database';
import { sortingInFiles } from './temp-store';
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

const actions = SUMMARY_ACTIONS.map((a) => `'${a}'`).join(', ');

const SUMMARY_SQL = (withProfile: boolean) => `
  WITH days(day, lo, hi) AS (
    SELECT value ->> '$.day', value ->> '$.from', value ->> '$.to' FROM json_each(?)
  )
  SELECT d.day AS day, j.currency AS currency, ${KIND_SQL} AS kind, j.operator AS operator,
         ${OUTCOME_SQL} AS outcome, count(*) AS count, sum(j.amount_minor) AS amount,
         count(*) - count(j.amount_minor) AS without_amount
    FROM days d
    JOIN journal j INDEXED BY journal_report ON j.created_at >= d.lo AND j.created_at < d.hi
   WHERE j.action IN (${actions})${withProfile ? ' AND j.profile_id = ?' : ''}
   GROUP BY 1, 2, 3, 4, 5`;

export function summarise(db: Db, query: SummaryQuery): ReportLine[] {
  checkDays(query.days);
  const days = JSON.stringify(query.days.map(({ day, from, to }) => ({ day, from, to })));
  const statement = db
    .prepare<unknown[], SummaryRow>(SUMMARY_SQL(query.profileId !== undefined))
    .safeIntegers(true);
  // The groups of a long range are sorted from every entry in it (temp-store.ts).
  const rows = sortingInFiles(db, () =>
    query.profileId === undefined ? statement.all(days) : statement.all(days, query.profileId),
  );
  return sortLines(rows.map(lineOfRow));
}
