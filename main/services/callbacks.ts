// Callback check (support): a shop pastes what it received from the gateway (the callback's
// URL, its query string, or the browser-return POST body) and asks whether it is genuine.
// The checksum is verified here in main with the profiles' control keys, which never cross the
// bridge. What comes back is the verdict in plain words and the fields, card numbers masked.

import { verifyCallback } from '../gateway';
import type { SecretStore } from '../secrets';
import type { Profiles } from '../store/sqlite/profiles';
import { maskPan } from '../store/journal/redact';
import { findCardData } from '../../common/card-data';
import { ServiceError } from './errors';

export type CallbackVerdict =
  /** The checksum matches the active profile's control key. */
  | 'genuine'
  /** It matches another profile's key: genuine, but for another merchant account. */
  | 'other-profile'
  /** The checksum does not match any key: forged, or changed on the way. */
  | 'forged'
  /** A field the checksum needs is missing, or a field appears twice: it cannot be checked. */
  | 'incomplete';

export interface CallbackCheckResult {
  verdict: CallbackVerdict;
  /** One or two sentences for the person at the desk. */
  message: string;
  /** How the pasted text was read. */
  readAs: 'url' | 'query' | 'form';
  /** Every field in the order it came, card numbers masked. */
  fields: { name: string; value: string }[];
  orderid?: string;
  clientOrderId?: string;
  status?: string;
  /** The profile whose key matched, when it is not the active one. */
  matchedProfile?: { id: string; name: string };
}

/** The fields the callback checksum covers: `sha1(status + orderid + client_orderid + key)`. */
const SIGNED = ['status', 'orderid', 'client_orderid', 'control'] as const;

/** Reads a pasted callback into its parameters, in order. */
export function parseCallbackText(text: string): {
  readAs: CallbackCheckResult['readAs'];
  params: [string, string][];
} {
  const trimmed = text.trim();
  if (trimmed === '') throw new ServiceError('INPUT', 'Paste the callback first.', 'text');
  let readAs: CallbackCheckResult['readAs'] = 'form';
  let query = trimmed;
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new ServiceError(
        'INPUT',
        'This looks like an address, but it cannot be read as one. Paste the whole callback URL.',
        'text',
      );
    }
    readAs = 'url';
    query = url.search;
  } else if (trimmed.startsWith('?')) {
    readAs = 'query';
  } else if (trimmed.includes('?') && !trimmed.slice(0, trimmed.indexOf('?')).includes('=')) {
    // A path with its query ("/callback?status=..."): what follows the "?" is the callback.
    readAs = 'query';
    query = trimmed.slice(trimmed.indexOf('?'));
  }
  const params = [
    ...new URLSearchParams(query.replace(/^\?/, '').replace(/[\r\n]+/g, '')).entries(),
  ];
  if (params.length === 0 || params.every(([name]) => !SIGNED.includes(name as never))) {
    throw new ServiceError(
      'INPUT',
      'No callback fields were found. Paste the callback URL, its query string (status=...&orderid=...), or the POST body.',
      'text',
    );
  }
  return { readAs, params };
}

export class CallbackService {
  constructor(
    private readonly profiles: Profiles,
    private readonly secrets: SecretStore,
  ) {}

  async check(profileId: string, text: string): Promise<CallbackCheckResult> {
    const active = this.profiles.require(profileId);
    const { readAs, params } = parseCallbackText(text);
    const fields = params.map(([name, value]) => ({
      name,
      value: findCardData(value)?.kind === 'card-number' ? maskPan(value) : value,
    }));
    const single: Record<string, string> = {};
    const base = { readAs, fields };
    for (const [name, value] of params) {
      if (name in single && single[name] !== value && SIGNED.includes(name as never)) {
        return {
          ...base,
          verdict: 'incomplete',
          message: `The field ${name} appears twice with different values. A genuine callback carries each field once: this one was changed.`,
        };
      }
      single[name] ??= value;
    }
    const ids = {
      ...(single.orderid ? { orderid: single.orderid } : {}),
      ...(single.client_orderid ? { clientOrderId: single.client_orderid } : {}),
      ...(single.status ? { status: single.status } : {}),
    };
    const missing = SIGNED.filter((name) => !single[name]);
    if (missing.length > 0) {
      return {
        ...base,
        ...ids,
        verdict: 'incomplete',
        message: `The callback has no ${missing.join(', ')}, so its checksum cannot be checked. Paste the whole callback as the shop received it.`,
      };
    }

    const activeKey = await this.secrets.get(active.id, 'control-key');
    if (!activeKey) {
      throw new ServiceError(
        'NO_SECRET',
        `The profile "${active.name}" has no control key in the keychain; enter it in Profiles first.`,
      );
    }
    if (verifyCallback(single, activeKey).valid) {
      return {
        ...base,
        ...ids,
        verdict: 'genuine',
        message: `Genuine: the checksum matches the control key of "${active.name}". It covers status, orderid and client_orderid only, not the amount or the other fields; the order's status at the gateway is the final word.`,
      };
    }
    // Not ours: perhaps the shop pasted a callback of another of its merchant accounts.
    for (const other of this.profiles.list()) {
      if (other.id === active.id) continue;
      const key = await this.secrets.get(other.id, 'control-key');
      if (key && verifyCallback(single, key).valid) {
        return {
          ...base,
          ...ids,
          verdict: 'other-profile',
          matchedProfile: { id: other.id, name: other.name },
          message: `Genuine, but for another account: the checksum matches the control key of "${other.name}", not of "${active.name}". Switch to that profile to look the order up.`,
        };
      }
    }
    return {
      ...base,
      ...ids,
      verdict: 'forged',
      message: `Not genuine: the checksum (control) does not match status, orderid and client_orderid under the control key of "${active.name}". It was not sent by the gateway, or a field was changed on the way.`,
    };
  }
}
