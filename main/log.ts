// The app's log: one JSON object a line in a file of the user data folder. What is logged is
// chosen at the call site, and every `fields` object passes through the journal's redaction,
// so a card number, a CVV or a secret cannot reach the log by accident.

import { appendFileSync } from 'node:fs';

import { redactFields } from './store/journal/redact';

export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, data?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { log: () => undefined };

function safe(data: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!data) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (/key|secret|password|pem|control|cvv|passphrase/i.test(key)) continue;
    if (key === 'fields' && value && typeof value === 'object') {
      out.fields = redactFields(value as Record<string, string>);
    } else if (value instanceof Error) {
      out[key] = { name: value.name, message: value.message };
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function fileLogger(file: string, now: () => Date = () => new Date()): Logger {
  return {
    log(level, message, data) {
      const line = JSON.stringify({ at: now().toISOString(), level, message, ...safe(data) });
      try {
        appendFileSync(file, line + '\n', { mode: 0o600 });
      } catch {
        // A log that cannot be written must never stop a payment operation.
      }
    },
  };
}
