// Every failure of the team journal's database as what the desk already knows how to show: a
// StoreError (code, whether trying again may help, a sentence for the person) for the store
// itself, a JournalError for a refusal of the journal's rules (the triggers' PD001-PD005 but PD004, a
// reused client_orderid). A raw pg error ("Connection terminated unexpectedly", "terminating
// connection due to administrator command") never reaches a screen.

import { describeStoreProblem, StoreError, type StoreErrorCode } from '../errors';
import { connectionAdvice, type ConnectionNames } from './advice';
import { JournalError } from '../journal/types';
import { TEAM_ERRORS } from './migrations';

interface PgLike {
  code?: unknown;
  message?: unknown;
}

/** Node's socket errors that mean the server cannot be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Node's TLS verification failures: the server's certificate is not one this desk trusts. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The journal's reference to paydesk.profiles (PostgreSQL's name for it: migrations.ts). */
const PROFILE_REFERENCE = 'journal_profile_id_fkey';

/** What node-postgres throws, without a code, when the connection is gone. */
const GONE_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
];

function codeOf(sqlState: string, message: string): StoreErrorCode | 'JOURNAL' {
  if (NETWORK_CODES.has(sqlState)) return 'UNREACHABLE';
  // 08: connection exception; 57P01-57P03: the server is shutting down or starting; 53300: too
  // many connections. All pass when the server is back.
  if (sqlState.startsWith('08') || /^57P0[1-3]$/.test(sqlState) || sqlState === '53300')
    return 'UNREACHABLE';
  if (sqlState === '' && GONE_MESSAGES.some((m) => message.includes(m))) return 'UNREACHABLE';
  // 28: the login or its password was refused; 42501: the role may not do this.
  if (sqlState.startsWith('28') || sqlState === '42501') return 'NOT_ALLOWED';
  if (
    sqlState === TEAM_ERRORS.notForward ||
    sqlState === TEAM_ERRORS.rewrite ||
    sqlState === TEAM_ERRORS.removal ||
    sqlState === TEAM_ERRORS.unanswered
  )
    return 'JOURNAL';
  // The quarantine has not ended by the server's clock: asking again later will pass.
  if (sqlState === TEAM_ERRORS.tooEarly) return 'BUSY';
  // 55P03: lock wait timed out; 40001/40P01: serialization failure, deadlock (try again).
  if (sqlState === '55P03' || sqlState === '40001' || sqlState === '40P01') return 'BUSY';
  if (sqlState.startsWith('23')) return 'CONSTRAINT';
  return 'FAILED';
}

/**
 * The error to throw for whatever a call to the team database threw. `where` names the server
 * ("PostgreSQL at db.example.com:5432") in messages, `names` the login and database when known
 * (advice.ts: what to fix, by SQLSTATE). Errors that are not the database's (a
 * service's own refusal thrown inside a claim) come back as they are.
 */
export function toTeamError(error: unknown, where: string, names: ConnectionNames = {}): unknown {
  if (error instanceof StoreError || error instanceof JournalError) return error;
  if (typeof error !== 'object' || error === null) return error;
  const { code, message } = error as PgLike;
  const text = typeof message === 'string' ? message : 'no message';
  const sqlState = typeof code === 'string' ? code : '';
  // TLS could not be verified, or the server offers none: nothing was sent, the password included.
  if (CERTIFICATE_CODES.has(sqlState))
    return new StoreError(
      'NOT_ALLOWED',
      `The certificate of ${where} could not be verified (${text}), so Paydesk did not send the password. Paste your company's CA certificate in Settings -> Team journal, or ask your database administrator which one signs the server's certificate.`,
      { cause: error },
    );
  if (text.includes('The server does not support SSL connections'))
    return new StoreError(
      'NOT_ALLOWED',
      `${where} does not offer TLS, so Paydesk did not send the password. Ask your database administrator to turn TLS on (ssl = on); without TLS Paydesk connects only to a server on this computer.`,
      { cause: error },
    );
  // A server's refusal carries a severity; a socket's failure a Node code; a closed client only
  // its message. Anything else (a service's own refusal inside a claim) is not ours to map.
  const isPg =
    'severity' in error ||
    NETWORK_CODES.has(sqlState) ||
    (sqlState === '' && GONE_MESSAGES.some((m) => text.includes(m)));
  if (!isPg) return error;
  // A rule of the team's own, said in the database's sentence (the action path adds that
  // nothing was sent: the pay's entry was refused before its request could leave).
  if (sqlState === TEAM_ERRORS.fourEyes)
    return new StoreError('NOT_ALLOWED', text, {
      cause: error,
      sqliteCode: `PG_${sqlState}`,
    });
  const advised = connectionAdvice(sqlState, text, where, names, error);
  if (advised) return advised;
  const mapped = codeOf(sqlState, text);
  if (mapped === 'JOURNAL') return new JournalError(text);
  // 23503 on the journal's profile: the entry names a profile the team does not share, which
  // is how a desk's own profile (its built-in Sandbox) meets the team journal.
  if (sqlState === '23503' && (error as { constraint?: unknown }).constraint === PROFILE_REFERENCE)
    return new StoreError(
      'CONSTRAINT',
      "Actions on this desk's own profiles (the built-in Sandbox is one) cannot be journaled while the desk is on a team: the team journal holds only the team's shared profiles. Nothing was sent. Use a shared profile, or leave the team journal (Settings -> Team journal) to practise on the Sandbox.",
      { cause: error, sqliteCode: `PG_${sqlState}` },
    );
  const detail =
    mapped === 'UNREACHABLE' || mapped === 'BUSY' ? `${where}: ${text}` : `${where} said: ${text}`;
  const sentence =
    sqlState === TEAM_ERRORS.tooEarly
      ? `The team journal keeps this entry pending: ${text} Paydesk asks the gateway again then; nothing was sent.`
      : mapped === 'BUSY'
        ? `The team journal was busy with another desk's change for too long (${detail}); nothing was changed. Try again in a moment.`
        : mapped === 'CONSTRAINT' || mapped === 'FAILED'
          ? `The team journal's database refused or failed this (${detail}); nothing was changed. Send the log to support.`
          : describeStoreProblem(mapped, '', detail);
  return new StoreError(mapped, sentence, {
    cause: error,
    ...(sqlState ? { sqliteCode: `PG_${sqlState}` } : {}),
  });
}
