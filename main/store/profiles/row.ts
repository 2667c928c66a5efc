// A connection profile as a row of columns, one mapping for both places that hold one: the
// desk's SQLite `profiles` (sqlite/profiles.ts) and the team's shared paydesk.profiles
// (postgres/profiles.ts). Each store adds its own columns (the desk's `embedded`, the team's
// `updated_by`); the gateway connection's columns are read and written here only.

import type { Profile, ProfileInput } from './profile';

/** The columns both stores' profile tables have, as their drivers read them. */
export interface ProfileRow {
  id: string;
  name: string;
  environment: Profile['environment'];
  base_url: string;
  endpoint_id: string;
  endpoint_kind: Profile['endpointKind'];
  login: string;
  key_fingerprint: string | null;
  /** SQLite: 0 or 1; PostgreSQL: a boolean. */
  payout_four_eyes: number | boolean;
  /** SQLite: ISO text; PostgreSQL: a Date. */
  created_at: string | Date;
  updated_at: string | Date;
}

/** What every profile is, on a desk or shared by a team. */
export type ProfileFields = Omit<Profile, 'embedded'>;

const iso = (t: string | Date): string => (typeof t === 'string' ? t : t.toISOString());

export function profileOfRow(r: ProfileRow): ProfileFields {
  return {
    id: r.id,
    name: r.name,
    environment: r.environment,
    baseUrl: r.base_url,
    endpointId: r.endpoint_id,
    endpointKind: r.endpoint_kind,
    login: r.login,
    keyFingerprint: r.key_fingerprint,
    payoutFourEyes: r.payout_four_eyes === true || r.payout_four_eyes === 1,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The columns a person's input sets, in the order of profileValues. */
export const PROFILE_INPUT_COLUMNS = [
  'name',
  'environment',
  'base_url',
  'endpoint_id',
  'endpoint_kind',
  'login',
  'payout_four_eyes',
] as const;

/** A profile input's values for PROFILE_INPUT_COLUMNS, in that order. */
export function profileValues(input: ProfileInput): string[] {
  return [
    input.name,
    input.environment,
    input.baseUrl,
    input.endpointId,
    input.endpointKind ?? 'endpoint',
    input.login,
    // Both stores read '1' and '0' as their own true and false.
    input.payoutFourEyes ? '1' : '0',
  ];
}
