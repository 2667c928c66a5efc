// Callback check (support): a shop pastes what it received from the gateway (the callback's
// URL, its query string, or the browser-return POST body) and asks whether it is genuine.
// The checksum is verified here in main with the profiles' control keys, which never cross the
// bridge. The checksum covers status, orderid and client_orderid only, so a callback that
// passes it is then compared with the gateway's own answer about the order, asked with the
// profile whose key matched: a difference in status, amount, currency or type is the verdict,
// never "genuine". What comes back is the verdict in plain words and the fields, card numbers
// masked.

import { verifyCallback } from '../gateway';
import { ValidationError } from '../gateway/errors';
import type { SecretStore } from '../secrets';
import type { Profile } from '../store/profiles/profile';
import type { Profiles } from '../store/sqlite/profiles';
import { maskPan } from '../store/journal/redact';
import { findCardData } from '../../common/card-data';
import {
  callbackDifferences,
  describeDifferences,
  type CallbackDifference,
} from './callback-compare';
import type { Connections } from './connection';
import { ServiceError } from './errors';

export type CallbackVerdict =
  /** The checksum matches the active profile's control key and the gateway agrees. */
  | 'genuine'
  /** It matches another profile's key and that profile's gateway agrees: another account. */
  | 'other-profile'
  /** The checksum matches, but the gateway states another status, amount, currency or type. */
  | 'altered'
  /** The checksum matches, but the gateway could not be asked: nothing else was checked. */
  | 'checksum-only'
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
  /** Where the callback and the gateway disagree (verdict `altered`). */
  differences?: CallbackDifference[];
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
    private readonly connections: Connections,
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
      return { ...base, ...ids, ...(await this.compare(active, single, undefined)) };
    }
    // Not ours: perhaps the shop pasted a callback of another of its merchant accounts.
    for (const other of this.profiles.list()) {
      if (other.id === active.id) continue;
      const key = await this.secrets.get(other.id, 'control-key');
      if (key && verifyCallback(single, key).valid) {
        const matchedProfile = { id: other.id, name: other.name };
        return {
          ...base,
          ...ids,
          matchedProfile,
          ...(await this.compare(other, single, active)),
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

  /**
   * The verdict on a callback whose checksum matched `signer`'s key: the order is looked up with
   * that profile and every figure the callback states is compared with the gateway's answer.
   * `active` is given when the signer is another profile than the one the clerk works in.
   */
  private async compare(
    signer: Profile,
    params: Readonly<Record<string, string>>,
    active: Profile | undefined,
  ): Promise<Pick<CallbackCheckResult, 'verdict' | 'message' | 'differences'>> {
    const keyOf = active
      ? `the control key of "${signer.name}", not of "${active.name}"`
      : `the control key of "${signer.name}"`;
    let gateway;
    try {
      const { client } = await this.connections.clientFor(signer.id);
      gateway = await client.status({ orderid: params.orderid });
    } catch (error) {
      return {
        verdict: 'checksum-only',
        message: `Only the checksum was checked: it matches ${keyOf}, but ${whyNotAsked(error, params.orderid!)} It covers status, orderid and client_orderid only, not the amount or the other fields; look the order up before acting on this callback.`,
      };
    }
    const differences = callbackDifferences(params, gateway);
    if (differences.length > 0) {
      return {
        verdict: 'altered',
        differences,
        message: `The checksum matches, but the gateway says ${describeDifferences(differences, params, gateway)}: this callback was altered. Trust the order as the gateway shows it, not this callback.`,
      };
    }
    const named = [
      'status',
      ...(['amount', 'currency', 'type'] as const).filter((f) => params[f]?.trim()),
    ];
    const agreed =
      named.length === 1 ? 'status' : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
    return {
      verdict: active ? 'other-profile' : 'genuine',
      message: active
        ? `Genuine, but for another account: the checksum matches ${keyOf}, and that profile's gateway confirms its ${agreed}. Switch to "${signer.name}" to look the order up.`
        : `Genuine: the checksum matches ${keyOf}, and the gateway confirms its ${agreed}.`,
    };
  }
}

/** Why the gateway could not be asked about the order, as the end of a sentence. */
function whyNotAsked(error: unknown, orderid: string): string {
  if (error instanceof ValidationError) {
    return `the gateway has no order ${orderid} for this profile, so nothing else could be compared.`;
  }
  const reason = error instanceof Error ? error.message : String(error);
  return `the gateway could not be asked about order ${orderid} (${reason.replace(/\.$/, '')}).`;
}
