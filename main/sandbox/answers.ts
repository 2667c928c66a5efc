// The fields the sandbox answers with, named as gateway-notes.md and the client's parser
// (main/gateway/answer-body.ts and response.ts) read them, and the parameters of callbacks and
// browser returns.

import { randomUUID } from 'node:crypto';

import { formatMinor } from '../gateway/amount';
import { callbackControl } from '../gateway/callback';
import type { ResponseType } from '../gateway/operations';
import type { CardRefRow, TxRow } from './db';
import type { Engine } from './engine';

export type Fields = Record<string, string>;

/** Where the sandbox's own pages live, e.g. http://127.0.0.1:18080/paynet/sandbox. */
export function pagesBase(origin: string, prefix: string): string {
  return `${origin}${prefix}/sandbox`;
}

export const pageUrl = {
  form: (base: string, token: string) => `${base}/form/${token}`,
  acs: (base: string, token: string) => `${base}/acs/${token}`,
  wait: (base: string, token: string) => `${base}/wait/${token}`,
};

/** What every answer about a transaction starts with. */
export function head(
  type: ResponseType,
  endpointId: string,
  clientOrderId: string | undefined,
  orderId: bigint | string | undefined,
): Fields {
  const fields: Fields = { type, 'serial-number': randomUUID() };
  if (clientOrderId !== undefined) fields['merchant-order-id'] = clientOrderId;
  if (orderId !== undefined) fields['paynet-order-id'] = String(orderId);
  fields['end-point-id'] = endpointId;
  return fields;
}

/** The card's fields the transaction has, added to `fields`. */
function putCardFields(fields: Fields, tx: TxRow): void {
  if (tx.card_bin) fields.bin = tx.card_bin;
  if (tx.card_last4) fields['last-four-digits'] = tx.card_last4;
  if (tx.card_type) fields['card-type'] = tx.card_type;
  if (tx.card_holder) fields['cardholder-name'] = tx.card_holder;
  if (tx.card_exp_month) fields['card-exp-month'] = tx.card_exp_month;
  if (tx.card_exp_year) fields['card-exp-year'] = tx.card_exp_year;
}

/** The 3DS hand-off for the customer's browser: an auto-submitting form and the plain address. */
export function threeDsHandOff(acsUrl: string): { html: string; redirectTo: string } {
  const action = acsUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return {
    html: `<form method="POST" action="${action}" id="tds"><noscript><button type="submit">Continue to 3-D Secure</button></noscript></form><script>document.getElementById('tds').submit();</script>`,
    redirectTo: acsUrl,
  };
}

export function statusFields(engine: Engine, tx: TxRow, base: string): Fields {
  const fields = head('status-response', tx.endpoint_id, tx.client_orderid, tx.id);
  fields.status = tx.status;
  fields['transaction-type'] = tx.kind;
  fields.amount = formatMinor(tx.amount_minor, tx.currency);
  if (tx.currency) fields.currency = tx.currency;
  fields['order-stage'] = engine.orderStage(tx);
  if (tx.email) fields.email = tx.email;
  if (engine.isWaitingFor3ds(tx) && tx.page_token) {
    const handOff = threeDsHandOff(pageUrl.acs(base, tx.page_token));
    fields.html = handOff.html;
    fields['redirect-to'] = handOff.redirectTo;
  }
  if (tx.stage === 'form' && tx.page_token)
    fields['redirect-to'] = pageUrl.form(base, tx.page_token);
  putCardFields(fields, tx);
  const ref = tx.card_ref_id ?? engine.store.cardRefOfTx(tx.id)?.id;
  if (ref !== undefined && ref !== null) fields['card-ref-id'] = String(ref);
  if (tx.destination) fields['destination'] = tx.destination;
  if (tx.status === 'approved') {
    if (tx.approval_code) fields['approval-code'] = tx.approval_code;
    if (tx.rrn) fields['processor-rrn'] = tx.rrn;
    fields.descriptor = 'PAYDESK SANDBOX';
  }
  if (tx.status === 'declined' || tx.status === 'error' || tx.status === 'filtered') {
    fields['error-message'] = tx.decline_reason ?? 'Declined';
    fields['error-code'] = tx.decline_code ?? '05';
  }
  if (tx.parent_id !== null) fields['original-paynet-order-id'] = String(tx.parent_id);
  return fields;
}

export function cardInfoFields(ref: CardRefRow): Fields {
  const fields: Fields = {
    type: 'get-card-info-response',
    'serial-number': randomUUID(),
    'card-ref-id': String(ref.id),
  };
  fields['end-point-id'] = ref.endpoint_id;
  fields['card-printed-name'] = ref.card_holder;
  fields.bin = ref.card_bin;
  fields['last-four-digits'] = ref.card_last4;
  fields['card-type'] = ref.card_type;
  fields['expire-month'] = ref.card_exp_month;
  fields['expire-year'] = ref.card_exp_year;
  return fields;
}

/**
 * Parameters of the server callback (GET query) and of the browser return (POST form), as
 * gateway-notes.md lists them: control = sha1(status + orderid + client_orderid + key).
 */
export function outcomeParams(tx: TxRow, controlKey: string): Fields {
  const orderid = String(tx.id);
  const params: Fields = {
    status: tx.status,
    orderid,
    client_orderid: tx.client_orderid,
    merchant_order: tx.client_orderid,
    type: tx.kind,
    amount: formatMinor(tx.amount_minor, tx.currency),
  };
  if (tx.currency) params.currency = tx.currency;
  if (tx.status !== 'approved' && tx.decline_reason) {
    params.error_code = tx.decline_code ?? '05';
    params.error_message = tx.decline_reason;
  }
  if (tx.card_bin) params.bin = tx.card_bin;
  if (tx.card_last4) params['last-four-digits'] = tx.card_last4;
  if (tx.card_type) params['card-type'] = tx.card_type;
  if (tx.card_holder) params.name = tx.card_holder;
  if (tx.approval_code) params['approval-code'] = tx.approval_code;
  if (tx.parent_id !== null) params['original-orderid'] = String(tx.parent_id);
  params.control = callbackControl(tx.status, orderid, tx.client_orderid, controlKey);
  return params;
}
