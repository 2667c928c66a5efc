// What to do when the team's database refuses a desk, chosen by SQLSTATE, never by the wording
// of the server's message (a server may speak another language): an unknown database is a
// name to check, a wrong password is the password, a login in no Paydesk group needs one named
// group. The server's own text rides along in brackets for the log and the DBA.

import { StoreError } from '../errors';
import { GROUP_ROLES } from './migrations';

/** Who the desk connected as and to what, when known, for the sentences. */
export interface ConnectionNames {
  login?: string;
  database?: string;
}

/** The group for each kind of work, as the person and the DBA say it. */
export const GROUP_FOR_WORK =
  'paydesk_support to look orders up and read the journal, paydesk_finance to move money too, paydesk_admin to change the shared profiles and keys';

/** The sentence for a login in none of the Paydesk groups: which group to ask for, and how. */
export function notInAGroupMessage(login: string, where: string): string {
  return (
    `The login ${login} is in none of the Paydesk groups (${GROUP_ROLES.join(', ')}) on ${where}, ` +
    'so it may not read or write the team journal. Ask your database administrator to add it to ' +
    `the group for your work: ${GROUP_FOR_WORK} (for example GRANT paydesk_finance TO ${login};).`
  );
}

/**
 * The StoreError for a refusal whose SQLSTATE says what to fix, or undefined for any other.
 * 3D000: no such database; 28P01: wrong password; 28000: the login may not connect at all;
 * 42501 on the schema or the database: a login in no Paydesk group (or without CONNECT).
 */
export function connectionAdvice(
  sqlState: string,
  text: string,
  where: string,
  names: ConnectionNames,
  cause: unknown,
): StoreError | undefined {
  const login = names.login ?? 'your login';
  const database = names.database ?? 'the database';
  // "Your login ann may not ..." or, not knowing the name, "Your login may not ...".
  const yourLogin = names.login ? `Your login ${names.login}` : 'Your login';
  const code = `PG_${sqlState}`;
  const make = (kind: 'FAILED' | 'NOT_ALLOWED', message: string) =>
    new StoreError(kind, message, { cause, sqliteCode: code });
  switch (sqlState) {
    case '3D000':
      return make(
        'FAILED',
        `There is no database ${database} on ${where} (${text}). Check the database name in Settings -> Team journal: it is the one your database administrator set up for Paydesk (often paydesk).`,
      );
    case '28P01':
      return make(
        'NOT_ALLOWED',
        `The password for ${login} on ${where} is wrong (${text}). Type it again in Settings -> Team journal; if you do not know it, ask your database administrator to set a new one.`,
      );
    case '28000':
      return make(
        'NOT_ALLOWED',
        `${where} does not let ${login} connect (${text}). Ask your database administrator to check that the login exists, may log in, and may connect from this computer.`,
      );
    case '42501':
      return notInAGroup(text, where, { login, database, yourLogin }, make);
    default:
      return undefined;
  }
}

/** 42501 refusals that mean the login has no Paydesk group (or no CONNECT), not a rule of ours. */
function notInAGroup(
  text: string,
  where: string,
  { login, database, yourLogin }: { login: string; database: string; yourLogin: string },
  make: (kind: 'NOT_ALLOWED', message: string) => StoreError,
): StoreError | undefined {
  // Server texts in English; elsewhere the generic sentence still says who can fix it.
  if (/permission denied for schema paydesk/.test(text))
    return make('NOT_ALLOWED', notInAGroupMessage(login, where));
  if (/permission denied for database/.test(text))
    return make(
      'NOT_ALLOWED',
      `${where} does not let ${login} connect to ${database} (${text}). Ask your database administrator to run GRANT CONNECT ON DATABASE ${database} TO paydesk_support, paydesk_finance, paydesk_admin; and to put ${login} in the group for your work: ${GROUP_FOR_WORK}.`,
    );
  const table = /permission denied for (?:table|relation) (\w+)/.exec(text)?.[1];
  if (table === 'journal' || table === 'journal_answers')
    return make(
      'NOT_ALLOWED',
      `${yourLogin} may not write the team journal on ${where} (${text}); nothing was changed. Only paydesk_finance moves money: ask your database administrator to add it to paydesk_finance if your work needs it.`,
    );
  if (table === 'profiles')
    return make(
      'NOT_ALLOWED',
      `${yourLogin} may not change the team's shared profiles on ${where} (${text}); nothing was changed. Only paydesk_admin does: ask an admin of your team, or your database administrator to add it to paydesk_admin.`,
    );
  return undefined;
}
