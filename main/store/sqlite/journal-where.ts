// A journal filter's WHERE in SQLite's words, for its pages, counts and exports: the meaning of
// each field is said once for both stores (journal/filter.ts); this says only how SQLite writes
// a value, a time, a case-blind comparison and a prefix.

import { filterConditions, whereOf, type JournalFilter } from '../journal/filter';

export interface Where {
  /** `WHERE ...` or '' */
  where: string;
  params: Record<string, string>;
}

/** The filter's WHERE in SQLite's words (journal-filter.ts says what each field means). */
export function whereClause(filter: JournalFilter): Where {
  const params: Record<string, string> = {};
  const where = whereOf(
    filterConditions(filter, {
      bind(field, value) {
        params[field] = value;
        return `@${field}`;
      },
      equalsIgnoringCase: (column, p) => `${column} = ${p} COLLATE NOCASE`,
      // created_at is UTC ISO text, which sorts as the times do.
      time: (p) => p,
      integer: (p) => `CAST(${p} AS INTEGER)`,
      // GLOB, not LIKE: it keeps letter case, so the columns' own (BINARY) indexes serve a
      // prefix; its wildcards in the value are taken literally inside brackets.
      startsWith(column, name, value) {
        params[`${name}Glob`] = `${value.replace(/[*?[]/g, (c) => `[${c}]`)}*`;
        return `${column} GLOB @${name}Glob`;
      },
      // SQLite's LIKE ignores the case of ASCII letters.
      likeIgnoringCase: (column, p) => `${column} LIKE ${p} ESCAPE '\\'`,
    }),
  );
  return { where, params };
}
