// A connection profile as Paydesk knows it, whichever store holds it (the desk's SQLite,
// store/sqlite/profiles.ts, or the team's PostgreSQL, store/postgres/profiles.ts), and the checks
// a person's input passes before either stores it. Secrets are never part of it: the control key
// and the private key are in the OS keychain under the profile's id (main/secrets/).

import { validateBaseUrl } from '../../gateway/request';
import {
  BROKEN_TEXT_MESSAGE,
  isWellFormedText,
  unsafeTextMessage,
} from '../../../common/text-rules';

export type Environment = 'production' | 'test' | 'sandbox';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'test', 'sandbox'];

export interface Profile {
  id: string;
  name: string;
  environment: Environment;
  baseUrl: string;
  endpointId: string;
  endpointKind: 'endpoint' | 'group';
  login: string;
  keyFingerprint: string | null;
  /**
   * Four eyes on two-step payouts: a checked payout is paid by someone other than who checked
   * it (payouts.ts; on a team journal the database enforces it too).
   */
  payoutFourEyes: boolean;
  /** The sandbox Paydesk runs itself; its base URL follows the sandbox's port. */
  embedded: boolean;
  createdAt: string;
  updatedAt: string;
}

export type ProfileInput = Pick<
  Profile,
  'name' | 'environment' | 'baseUrl' | 'endpointId' | 'login'
> &
  Partial<Pick<Profile, 'endpointKind' | 'payoutFourEyes'>>;

export interface KeyHistoryEntry {
  fingerprint: string;
  environment: Environment;
  attachedAt: string;
  retiredAt: string | null;
}

export class ProfileError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}

const TEXT_FIELDS = [
  ['name', 'profile name'],
  ['baseUrl', 'base URL'],
  ['endpointId', 'endpoint id'],
  ['login', 'merchant login'],
] as const;

/** Refuses what the contract's schemas refuse, for callers that do not come over the bridge. */
export function checkProfileText(value: string, field: string, label: string): void {
  if (!isWellFormedText(value)) throw new ProfileError(BROKEN_TEXT_MESSAGE, field);
  const message = unsafeTextMessage(value.trim(), label);
  if (message) throw new ProfileError(message, field);
}

/** Checks and cleans a profile's fields; throws a ProfileError naming the field to fix. */
export function validateProfileInput(input: ProfileInput): ProfileInput {
  for (const [field, label] of TEXT_FIELDS) checkProfileText(String(input[field]), field, label);
  const name = input.name.trim();
  if (!name)
    throw new ProfileError('Give the profile a name, for example "Production EUR".', 'name');
  if (!ENVIRONMENTS.includes(input.environment)) {
    throw new ProfileError('Choose the environment: production, test or sandbox.', 'environment');
  }
  try {
    validateBaseUrl(input.baseUrl);
  } catch (error) {
    throw new ProfileError((error as Error).message, 'baseUrl');
  }
  const endpointId = input.endpointId.trim();
  if (!/^[1-9]\d{0,18}$/.test(endpointId)) {
    throw new ProfileError(
      'The endpoint id is the whole number the gateway gave you, for example 1111.',
      'endpointId',
    );
  }
  const login = input.login.trim();
  if (!login) throw new ProfileError('Enter the merchant login the gateway gave you.', 'login');
  return { ...input, name, endpointId, login, baseUrl: input.baseUrl.trim().replace(/\/+$/, '') };
}
