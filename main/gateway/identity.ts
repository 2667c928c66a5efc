// Every answer is checked against the request it answers: an answer about another order than
// the one asked about (a proxy's mix-up, a gateway fault, a hostile server) must never be
// adopted. Done once, here, so every caller of the client gets it.

import { IdentityError } from './errors';
import type { PreparedRequest } from './request';

interface Identified {
  type: string;
  /** merchant-order-id */
  clientOrderId?: string;
  /** paynet-order-id */
  orderId?: string;
}

/** The ids a request asks about, as its body says them. */
interface AskedIds {
  /** The body these ids were read from. */
  body: string;
  clientOrderId: string | undefined;
  orderid: string | undefined;
}

/**
 * Ids noted when a request was built, by request. Reading them back from the body took a
 * URLSearchParams parse per answer; a note is used only while the request's body is still the
 * very text it was made for, so a body changed after preparing is read afresh.
 */
const notedIds = new WeakMap<PreparedRequest, AskedIds>();

/**
 * Notes the ids of a request just built from `fields`: the exact name=value pairs its body
 * encodes (percent-encoding over well-formed text, which URLSearchParams decodes back to the
 * same strings), so these are the ids the body says.
 */
export function noteAskedIds(request: PreparedRequest, fields: Readonly<Record<string, string>>) {
  notedIds.set(request, {
    body: request.body,
    clientOrderId: fields.client_orderid ?? fields['client-order-id'],
    orderid: fields.orderid,
  });
}

/** The request's own ids, read back from the exact body that was sent. */
function askedIds(request: PreparedRequest): AskedIds {
  const noted = notedIds.get(request);
  if (noted && noted.body === request.body) return noted;
  const fields = new URLSearchParams(request.body);
  return {
    body: request.body,
    clientOrderId: fields.get('client_orderid') ?? fields.get('client-order-id') ?? undefined,
    orderid: fields.get('orderid') ?? undefined,
  };
}

/** True when the request asked about an id and the answer names another one. */
function differs(asked: string | undefined, said: string | undefined): boolean {
  return Boolean(asked) && said !== undefined && said !== asked;
}

/**
 * Throws IdentityError when the answer names another order than the request. A `status`
 * answer must name at least one of the ids it was asked about, and every id it names must be
 * the one asked about; any other answer that carries a merchant-order-id must carry the
 * request's client_orderid. (A follow-up's answer carries the new transaction's
 * paynet-order-id, not the one it acts on, so only status answers are held to the orderid.)
 */
export function checkIdentity(request: PreparedRequest, answer: Identified): void {
  const { clientOrderId, orderid } = askedIds(request);
  if (differs(clientOrderId, answer.clientOrderId))
    throw new IdentityError('merchant-order-id', clientOrderId ?? '', answer.clientOrderId);
  if (answer.type !== 'status-response') return;
  if (differs(orderid, answer.orderId))
    throw new IdentityError('paynet-order-id', orderid ?? '', answer.orderId);
  // An answer that names neither id cannot be tied to the request at all.
  if (orderid && answer.orderId === undefined && !(clientOrderId && answer.clientOrderId))
    throw new IdentityError('paynet-order-id', orderid, undefined);
  if (!orderid && clientOrderId && answer.clientOrderId === undefined)
    throw new IdentityError('merchant-order-id', clientOrderId, undefined);
}
