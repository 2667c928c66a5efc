// The team journal form's draft: its fields as typed (all text, the port too, so a half-typed
// value stays on screen), the request the bridge's contract takes made from them, and the form
// filled from the saved settings. Apart from the screen so the fields' component and the
// screen share one Draft.

import type { ResultOf } from '../../../../common/contract';

export const FIELDS = [
  'host',
  'port',
  'database',
  'login',
  'password',
  'desk',
  'tls',
  'caPem',
] as const;

export interface Draft {
  host: string;
  port: string;
  database: string;
  login: string;
  password: string;
  desk: string;
  tls: 'verified' | 'none';
  caPem: string;
}

export const EMPTY: Draft = {
  host: '',
  port: '5432',
  database: '',
  login: '',
  password: '',
  desk: '',
  tls: 'verified',
  caPem: '',
};

/** The request the contract takes; an empty password means "the one in the keychain". */
export function requestOf(d: Draft) {
  return {
    host: d.host,
    port: /^\d+$/.test(d.port.trim()) ? Number(d.port.trim()) : Number.NaN,
    database: d.database,
    login: d.login,
    desk: d.desk,
    tls: d.tls,
    ...(d.password ? { password: d.password } : {}),
    ...(d.caPem.trim() ? { caPem: d.caPem } : {}),
  };
}

export type SavedView = ResultOf<'team', 'settings'>;

export function draftOf(settings: SavedView['settings'] | undefined): Draft {
  if (!settings) return EMPTY;
  return {
    host: settings.host,
    port: String(settings.port),
    database: settings.database,
    login: settings.login,
    password: '',
    desk: settings.desk,
    tls: settings.tls,
    caPem: settings.caPem ?? '',
  };
}
