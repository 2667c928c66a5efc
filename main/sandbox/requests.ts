// Turning an operation's request into transactions: the shared steps of the handlers (a card
// payment with its CVV2 outcome, a payment on a stored card, a hosted-form order, a payout's
// destination, the reference to an earlier order) and the refusals each step can give.

import { parseAmount } from '../gateway/amount';
import type { OperationDef } from '../gateway/operations';
import { head, pageUrl, type Fields } from './answers';
import { maskPan, outcomeForCvv2, storedCard, type StoredCard } from './cards';
import { refuse } from './codes';
import type { CardRefRow, TxKind, TxRow } from './db';
import type { Engine } from './engine';
import type { Merchant } from './merchants';
import { cardExpired } from './recurring';

export interface OpRequest {
  def: OperationDef;
  merchant: Merchant;
  endpointId: string;
  /** Validated body fields, without login, control and oauth_*. */
  fields: Readonly<Record<string, string>>;
  /** Base address of the sandbox's pages, as the client reached the sandbox. */
  pages: string;
}

export const coidOf = (req: OpRequest): string => req.fields[req.def.clientOrderIdField] ?? '';
export const minorOf = (text: string | undefined, currency: string | undefined): bigint =>
  text === undefined ? 0n : parseAmount(text, 'amount', currency).minor;
export const requested = (fields: Readonly<Record<string, string>>) =>
  fields.amount !== undefined && fields.currency !== undefined
    ? { minor: minorOf(fields.amount, fields.currency), currency: fields.currency }
    : undefined;

export function need(req: OpRequest, names: readonly string[], why: string): void {
  for (const name of names) {
    if (!req.fields[name])
      throw refuse('MISSING_FIELD', `${req.def.name} needs the field ${name} ${why}.`);
  }
}

/** A follow-up's client_orderid must be fresh or already belong to the order it acts on. */
function checkFollowUpId(engine: Engine, req: OpRequest, target: TxRow): void {
  const root = engine.root(target).id;
  for (const other of engine.store.allByClientOrderId(req.endpointId, coidOf(req))) {
    if (engine.root(other).id !== root) {
      throw refuse(
        'DUPLICATE_ORDER',
        `client_orderid ${coidOf(req)} already names order ${other.id}, not order ${target.id}; use a fresh client_orderid.`,
      );
    }
  }
}

/** The order a follow-up (capture, return, void, card ref) acts on, with its id rule checked. */
export function followUpTarget(engine: Engine, req: OpRequest): TxRow {
  const target = engine.find(req.endpointId, req.fields.orderid ?? '');
  checkFollowUpId(engine, req, target);
  return target;
}

/** The columns every new transaction takes from its request. */
export function newTxColumns(req: OpRequest) {
  return {
    endpoint_id: req.endpointId,
    client_orderid: coidOf(req),
    operation: req.def.name,
    amount_minor: minorOf(req.fields.amount, req.fields.currency),
    currency: req.fields.currency ?? '',
    server_callback_url: req.fields.server_callback_url ?? null,
  };
}

/** A reference operation names a transaction by orderid and its own client_orderid. */
export function referenced(engine: Engine, req: OpRequest): TxRow {
  const tx = engine.find(req.endpointId, req.fields.orderid ?? '');
  if (tx.client_orderid !== coidOf(req)) {
    throw refuse(
      'NOT_FOUND',
      `Order ${tx.id} does not carry ${req.def.clientOrderIdField} ${coidOf(req)}.`,
    );
  }
  return tx;
}

export function cardRefOf(engine: Engine, req: OpRequest, field: string): CardRefRow {
  const text = req.fields[field] ?? '';
  const ref = /^\d{1,18}$/.test(text)
    ? engine.store.cardRef(req.endpointId, BigInt(text))
    : undefined;
  if (!ref)
    throw refuse(
      'NOT_FOUND',
      `No card reference ${text} exists for endpoint ${req.endpointId} (${field}).`,
    );
  return ref;
}

export const cardOfRef = (ref: CardRefRow): StoredCard => ({
  card_bin: ref.card_bin,
  card_last4: ref.card_last4,
  card_type: ref.card_type,
  card_holder: ref.card_holder,
  card_exp_month: ref.card_exp_month,
  card_exp_year: ref.card_exp_year,
});

const DESTINATION_FIELDS = [
  'destination-card-no',
  'destination-card-ref-id',
  'destination_card_recurring_payment_id',
  'account_number',
  'receiver_phone',
] as const;

/** A payout's or transfer's destination, checked and masked; a missing one is refused. */
export function destinationOf(
  engine: Engine,
  req: OpRequest,
  allowed: readonly string[] = DESTINATION_FIELDS,
): string {
  const f = req.fields;
  if (f['destination-card-no']) return `card ${maskPan(f['destination-card-no'])}`;
  for (const field of ['destination-card-ref-id', 'destination_card_recurring_payment_id']) {
    if (f[field] && allowed.includes(field)) {
      const ref = cardRefOf(engine, req, field);
      return `card ${ref.card_bin}******${ref.card_last4} (card ref ${ref.id})`;
    }
  }
  if (f.account_number && allowed.includes('account_number')) {
    return `account ****${f.account_number.slice(-4)}${f.bank_bic ? ` at ${f.bank_bic}` : ''}`;
  }
  if (f.receiver_phone && allowed.includes('receiver_phone'))
    return `phone ****${f.receiver_phone.slice(-4)} (SBP)`;
  throw refuse(
    'MISSING_FIELD',
    `${req.def.name} needs a destination: one of ${allowed.join(', ')}.`,
  );
}

/** A payment with card data in the request: outcome by CVV2, 3DS first for 321. */
export function cardPayment(
  engine: Engine,
  req: OpRequest,
  kind: TxKind,
  extra: Partial<TxRow> = {},
): TxRow {
  const f = req.fields;
  const card = storedCard(f);
  const outcome = outcomeForCvv2(f.cvv2);
  return engine.create({
    ...newTxColumns(req),
    kind,
    email: f.email ?? null,
    ...card,
    redirect_url: f.redirect_url ?? null,
    plan: outcome.plan,
    decline_code: outcome.declineCode ?? null,
    decline_reason: outcome.declineReason ?? null,
    three_ds: outcome.threeDs ? 1n : 0n,
    stage: outcome.threeDs ? '3ds-method' : 'queued',
    ...extra,
  });
}

/** A payment on a stored card, no cardholder present: no 3DS; an expired card is declined. */
export function storedCardPayment(
  engine: Engine,
  req: OpRequest,
  kind: TxKind,
  ref: CardRefRow,
): TxRow {
  const f = req.fields;
  const outcome = cardExpired(ref, engine.now())
    ? { plan: 'decline' as const, declineCode: '54', declineReason: 'Declined: expired card' }
    : outcomeForCvv2(f.cvv2, false);
  return engine.create({
    ...newTxColumns(req),
    kind,
    ...cardOfRef(ref),
    card_ref_id: ref.id,
    plan: outcome.plan,
    decline_code: outcome.declineCode ?? null,
    decline_reason: outcome.declineReason ?? null,
  });
}

export function formOrder(engine: Engine, req: OpRequest, kind: TxKind): Fields {
  const f = req.fields;
  const tx = engine.create({
    endpoint_id: req.endpointId,
    client_orderid: coidOf(req),
    operation: req.def.name,
    kind,
    amount_minor: minorOf(f.amount, f.currency),
    currency: f.currency ?? '',
    email: f.email ?? null,
    redirect_url: f.redirect_url ?? null,
    server_callback_url: f.server_callback_url ?? null,
    stage: 'form',
  });
  return {
    ...asyncAnswer(req, tx, 'async-form-response'),
    'redirect-url': pageUrl.form(req.pages, tx.page_token ?? ''),
  };
}

export function asyncAnswer(
  req: OpRequest,
  tx: TxRow,
  type: 'async-response' | 'async-form-response' = 'async-response',
): Fields {
  return head(type, req.endpointId, coidOf(req), tx.id);
}

export function cardRefAnswer(engine: Engine, req: OpRequest): Fields {
  const target = followUpTarget(engine, req);
  if (target.status !== 'approved' || !target.card_bin) {
    throw refuse(
      'WRONG_STATE',
      `A card reference is made from an approved payment with card data; order ${target.id} (${target.kind}) is ${target.status}${target.card_bin ? '' : ' and carries no card'}.`,
    );
  }
  // One reference per card: a payment made on a reference gives that reference back.
  const ref =
    (target.card_ref_id !== null
      ? engine.store.cardRef(req.endpointId, target.card_ref_id)
      : undefined) ??
    engine.store.cardRefOfTx(target.id) ??
    engine.store.insertCardRef({
      endpoint_id: req.endpointId,
      source_tx_id: target.id,
      card_bin: target.card_bin,
      card_last4: target.card_last4 ?? '',
      card_type: target.card_type ?? '',
      card_holder: target.card_holder ?? '',
      card_exp_month: target.card_exp_month ?? '',
      card_exp_year: target.card_exp_year ?? '',
      created_at: BigInt(engine.now()),
    });
  return {
    ...head('create-card-ref-response', req.endpointId, coidOf(req), target.id),
    'card-ref-id': String(ref.id),
    status: 'approved',
  };
}

/** CRes: base64url JSON from the ACS; transStatus Y means the cardholder was authenticated. */
export function cresAuthenticated(cres: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cres, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    parsed === null ||
    typeof parsed !== 'object' ||
    typeof (parsed as { transStatus?: unknown }).transStatus !== 'string'
  ) {
    throw refuse(
      'INVALID_FIELD',
      'cres must be the base64url-encoded JSON CRes from the ACS, with a transStatus.',
    );
  }
  return (parsed as { transStatus: string }).transStatus === 'Y';
}
