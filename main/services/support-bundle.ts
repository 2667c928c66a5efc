// The support bundle: one JSON file a person saves (through the save dialog) and sends to
// support when something went wrong. It holds what support asks first: the app's and the
// platform's versions, the settings, the last days of the log, and the database's integrity
// check with its counts. It must never carry a secret or a card number, whatever a log line or
// a setting happens to hold, so every text in it goes through redact() last: each secret the
// keychain holds for a profile or the team (matched where it appears, even inside a longer
// text), any PEM private key, anything under a name that says key, secret or password (and that
// value wherever else it appears), and any card number (13-19 digits passing Luhn, masked to its
// first six and last four). A secret that only ever appears in free text, under no such name and
// not in the keychain, cannot be told from other text: the log's own rule (log.ts) is the guard.

import { readFileSync } from 'node:fs';
import os from 'node:os';

import Database from 'better-sqlite3';

import { passesLuhn } from '../../common/card-data';
import type { SecretStore } from '../secrets';
import { maskPan } from '../store/journal/redact';
import { readIntegrityOffThread } from '../store/sqlite/backup-check';
import type { Profiles } from '../store/sqlite/profiles';
import type { BackupService } from './backups';
import { TEAM_SECRET_ID } from './team/settings';
import type { TeamSettingsService } from './team/team-settings';

/** Days of the log a bundle holds. */
export const BUNDLE_LOG_DAYS = 3;

export interface SupportSources {
  databaseFile: string;
  profiles: Profiles;
  secrets: SecretStore;
  backups: BackupService;
  teamSettings: TeamSettingsService;
  /** The startup report (keychain, store, journal, sandbox), already free of secrets. */
  report: unknown;
}

const SECRET_NAME = /key|secret|password|passphrase|pem|control|cvv|token/i;
/** Names that say "key" but hold none: kept. */
const NOT_SECRET = new Set(['keyFingerprint', 'passwordSaved']);
const PRIVATE_KEY =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;
const SECURITY_CODE = /\b(cvv2?|cvc2?|cid|csc|security\s+code)(\W{0,3})\d{3,4}\b/gi;

/** Masks every card number in `text`, in whatever whole run of digit groups it is written. */
function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/\D/g, '');
    if (digits.length < 13 || digits.length > 19 || !passesLuhn(digits)) {
      // A longer run may hold a card number in some of its groups: look group by group.
      if (digits.length > 19 && /[ -]/.test(run))
        return run
          .split(/(?=[ -])/)
          .map(maskCardNumbers)
          .join('');
      return run;
    }
    return maskPan(digits);
  });
}

/** A redactor for texts: every known secret, private key, card number and security code out. */
export function textRedactor(secrets: readonly string[]): (text: string) => string {
  // Longest first, so a secret that contains another is removed whole.
  const known = [...new Set(secrets.filter((s) => s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let out = text;
    for (const secret of known) out = out.split(secret).join('[secret removed]');
    out = out.replace(PRIVATE_KEY, '[private key removed]');
    out = out.replace(SECURITY_CODE, '$1$2[removed]');
    return maskCardNumbers(out);
  };
}

/** `value` with every text redacted and every field named like a secret dropped. */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value)) {
      if (SECRET_NAME.test(name) && !NOT_SECRET.has(name)) {
        out[redact(name)] = '[removed]';
        continue;
      }
      out[redact(name)] = redactValue(field, redact);
    }
    return out;
  }
  return value;
}

/**
 * Every text found under a name that says it is a secret (a log line's `passphrase`, a nested
 * `password`): such a value is a secret wherever else it appears, in a message or an error.
 */
export function namedSecrets(value: unknown, found: string[] = [], underSecret = false): string[] {
  if (typeof value === 'string') {
    if (underSecret) found.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) namedSecrets(item, found, underSecret);
  } else if (value && typeof value === 'object') {
    for (const [name, field] of Object.entries(value)) {
      const secret = underSecret || (SECRET_NAME.test(name) && !NOT_SECRET.has(name));
      namedSecrets(field, found, secret);
    }
  }
  return found;
}

/** Every secret this desk's keychain holds for its profiles and the team. */
async function knownSecrets(sources: SupportSources): Promise<string[]> {
  const found: string[] = [];
  const read = async (id: string, kind: 'control-key' | 'rsa-private-key' | 'team-password') => {
    try {
      const value = await sources.secrets.get(id, kind);
      if (value) found.push(value);
    } catch {
      // A keychain that cannot be read holds nothing this bundle could leak.
    }
  };
  for (const profile of sources.profiles.list()) {
    await read(profile.id, 'control-key');
    await read(profile.id, 'rsa-private-key');
  }
  await read(TEAM_SECRET_ID, 'team-password');
  return found;
}

/** The log's lines of the last `days` days (each a JSON object with `at`), parsed. */
function recentLog(logFile: string | undefined, now: Date, days: number): unknown[] {
  if (!logFile) return [];
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  const since = now.getTime() - days * 86_400_000;
  const lines: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as { at?: unknown };
      const at = typeof entry.at === 'string' ? Date.parse(entry.at) : NaN;
      if (!(at < since)) lines.push(entry);
    } catch {
      lines.push({ unreadableLine: line });
    }
  }
  return lines;
}

/**
 * PRAGMA integrity_check (on a worker thread: seconds on a large journal, and the main thread
 * keeps answering meanwhile) and the journal's counts, on a read-only connection of its own.
 */
async function databaseCheck(file: string): Promise<Record<string, unknown>> {
  let db: Database.Database | undefined;
  try {
    const found = await readIntegrityOffThread(file);
    db = new Database(file, { readonly: true, fileMustExist: true });
    const states = db
      .prepare('SELECT state, COUNT(*) AS entries FROM journal GROUP BY state ORDER BY state')
      .all();
    return {
      file,
      integrityCheck: found.integrity,
      schemaVersion: found.version,
      journalEntriesByState: states,
    };
  } catch (error) {
    return { file, problem: error instanceof Error ? error.message : String(error) };
  } finally {
    db?.close();
  }
}

export async function supportBundle(
  sources: SupportSources,
  app: { version: string; logFile?: string },
  now = new Date(),
): Promise<string> {
  const team = await sources.teamSettings.current().catch((error: unknown) => ({
    problem: error instanceof Error ? error.message : String(error),
  }));
  const bundle = {
    bundle: 'Paydesk support bundle',
    madeAt: now.toISOString(),
    app: { name: 'Paydesk', version: app.version },
    platform: {
      os: `${os.type()} ${os.release()}`,
      platform: process.platform,
      arch: process.arch,
      versions: {
        node: process.versions.node,
        electron: process.versions.electron ?? null,
        chrome: process.versions.chrome ?? null,
        v8: process.versions.v8,
        sqlite: process.versions.sqlite ?? null,
      },
    },
    startup: sources.report,
    settings: {
      backups: sources.backups.status(),
      team,
      profiles: sources.profiles.list().map((p) => ({
        name: p.name,
        environment: p.environment,
        baseUrl: p.baseUrl,
        endpointId: p.endpointId,
        login: p.login,
        embedded: p.embedded,
        keyFingerprint: p.keyFingerprint,
      })),
    },
    database: await databaseCheck(sources.databaseFile),
    log: { days: BUNDLE_LOG_DAYS, lines: recentLog(app.logFile, now, BUNDLE_LOG_DAYS) },
  };
  const redact = textRedactor([...(await knownSecrets(sources)), ...namedSecrets(bundle)]);
  return JSON.stringify(redactValue(bundle, redact), null, 2) + '\n';
}
