// Every answer is checked against the request it answers: an answer about another order than
// the one asked about (a proxy's mix-up, a gateway fault, a hostile server) must never be
// adopted. Done once, here, so every caller of the client gets it.

import { IdentityError } from './errors';
import { notedAskedIds, type AskedIds, type PreparedRequest } from './request';

interface Identified {
  type: string;
  /** merchant-order-id */
  clientOrderId?: string;
  /** paynet-order-id */
  orderId?: string;
}

/** The request's own ids, read back from the exact body that was sent. */
function askedIds(request: PreparedRequest): AskedIds {
  // Noted when the request was built, and only while its body is unchanged.
  const noted = notedAskedIds(request);
  if (noted) return noted;
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
