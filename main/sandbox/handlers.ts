// One handler per operation of the table (main/gateway/operations.ts). The Record type makes
// the compiler refuse a table row without a handler here. Fields arrive validated by the
// client's own validateFields and authenticated; handlers apply the business rules and build
// the answer.

import { createHash } from 'node:crypto';

import type { RequestOperation } from '../gateway/operations';
import { cardInfoFields, head, statusFields, type Fields } from './answers';
import { storedCard } from './cards';
import { refuse } from './codes';
import type { CardRefRow, TxRow } from './db';
import type { Engine } from './engine';
import { carriesOrdersOwnId } from './readings';
import { addPeriods, cardExpired, parseStartDate, type Period } from './recurring';
import {
  asyncAnswer,
  cardPayment,
  cardRefAnswer,
  cardRefOf,
  cardOfRef,
  followUpTarget,
  newTxColumns,
  coidOf,
  cresAuthenticated,
  destinationOf,
  formOrder,
  minorOf,
  need,
  referenced,
  requested,
  storedCardPayment,
  type OpRequest,
} from './requests';

export type { OpRequest } from './requests';

/**
 * How an operation treats its client_orderid.
 * - `new`: starts an order; the id must be fresh. An identical repeat gets the first answer.
 * - `follow-up`: acts on an order; the id is fresh or that order's own. Under a fresh id,
 *   repeats as for `new`; under the order's own id, every request is a new transaction.
 * - `reference`: names the transaction it moves on (3DS uploads, payout-pay); never replayed,
 *   the state decides (payout-pay twice is refused, as the spec's "executes it" implies).
 * - `read`: status and get-card-info; nothing is recorded.
 */
type Mode = 'new' | 'follow-up' | 'reference' | 'read';

interface Handler {
  mode: Mode;
  handle(engine: Engine, req: OpRequest): Fields;
}

// The handlers ----------------------------------------------------------------------------

export const HANDLERS: Record<RequestOperation, Handler> = {
  TDS_UPLOAD_CRES_RESULT: {
    mode: 'reference',
    handle(engine, req) {
      const tx = referenced(engine, req);
      const ok = cresAuthenticated(req.fields.cres ?? '');
      return asyncAnswer(req, engine.completeChallenge(tx, ok));
    },
  },
  TDS_UPLOAD_METHOD_URL_RESULT: {
    mode: 'reference',
    handle(engine, req) {
      const tx = referenced(engine, req);
      return asyncAnswer(req, engine.methodResult(tx, req.fields.threeDSCompInd ?? 'U'));
    },
  },
  TDS_UPLOAD_PARES_RESULT: {
    mode: 'reference',
    handle(engine, req) {
      const tx = referenced(engine, req);
      // Sandbox convention (docs/sandbox.md): a PaRes of "N" or starting with "fail" is a failed authentication.
      const pares = req.fields.PaRes ?? '';
      const ok = !(pares === 'N' || /^fail/i.test(pares));
      return asyncAnswer(req, engine.completeChallenge(tx, ok));
    },
  },
  ACCOUNT_VERIFICATION_FORM: {
    mode: 'new',
    handle: (engine, req) => formOrder(engine, req, 'account-verification'),
  },
  ACCOUNT_VERIFICATION: {
    mode: 'new',
    handle: (engine, req) => asyncAnswer(req, cardPayment(engine, req, 'account-verification')),
  },
  CAPTURE: {
    mode: 'follow-up',
    handle(engine, req) {
      const target = followUpTarget(engine, req);
      return asyncAnswer(req, engine.capture(target, requested(req.fields), coidOf(req)));
    },
  },
  CARDREF: { mode: 'follow-up', handle: cardRefAnswer },
  CARDINFO: {
    mode: 'read',
    handle: (engine, req) => cardInfoFields(cardRefOf(engine, req, 'cardrefid')),
  },
  REBILL: {
    mode: 'new',
    handle: (engine, req) =>
      asyncAnswer(
        req,
        storedCardPayment(engine, req, 'rebill', cardRefOf(engine, req, 'cardrefid')),
      ),
  },
  PAYMENTFORM: { mode: 'new', handle: (engine, req) => formOrder(engine, req, 'sale') },
  PAYOUTFORM: { mode: 'new', handle: (engine, req) => formOrder(engine, req, 'payout') },
  PAYOUT: {
    mode: 'new',
    handle: (engine, req) => asyncAnswer(req, createPayout(engine, req)),
  },
  PREAUTHFORM: { mode: 'new', handle: (engine, req) => formOrder(engine, req, 'preauth') },
  PREAUTH: {
    mode: 'new',
    handle: (engine, req) => asyncAnswer(req, cardPayment(engine, req, 'preauth')),
  },
  RETURN: {
    mode: 'follow-up',
    handle(engine, req) {
      const target = followUpTarget(engine, req);
      return asyncAnswer(req, engine.refund(target, requested(req.fields), coidOf(req)));
    },
  },
  SALEFORM: { mode: 'new', handle: (engine, req) => formOrder(engine, req, 'sale') },
  SALE: {
    mode: 'new',
    handle: (engine, req) => asyncAnswer(req, cardPayment(engine, req, 'sale')),
  },
  STATUS: {
    mode: 'read',
    handle(engine, req) {
      const { orderid, client_orderid: coid } = req.fields;
      let tx: TxRow | undefined;
      if (orderid !== undefined) {
        tx = engine.find(req.endpointId, orderid);
        if (coid !== undefined && tx.client_orderid !== coid) {
          throw refuse('NOT_FOUND', `Order ${orderid} does not carry client_orderid ${coid}.`);
        }
      } else {
        tx = engine.store.latestByClientOrderId(req.endpointId, coid ?? '');
        if (!tx)
          throw refuse(
            'NOT_FOUND',
            `No order with client_orderid ${coid ?? ''} exists for endpoint ${req.endpointId}.`,
          );
      }
      return statusFields(engine, tx, req.pages);
    },
  },
  VOID: {
    mode: 'follow-up',
    handle(engine, req) {
      const target = followUpTarget(engine, req);
      if (req.fields.amount !== undefined)
        throw refuse('AMOUNT_REFUSED', 'A void is never partial; send it without amount.');
      return asyncAnswer(req, engine.voidTx(target, coidOf(req)));
    },
  },
  CARDREF_V4: { mode: 'follow-up', handle: cardRefAnswer },
  CREATE_RP_V4: {
    mode: 'new',
    handle(engine, req) {
      const f = req.fields;
      const now = engine.now();
      let ref: CardRefRow;
      if (f.cardrefid) {
        ref = cardRefOf(engine, req, 'cardrefid');
      } else {
        need(req, ['expire_month', 'expire_year'], 'with credit_card_number');
        const card = storedCard(f);
        if (!card)
          throw refuse('MISSING_FIELD', `${req.def.name} needs cardrefid or credit_card_number.`);
        ref = engine.store.insertCardRef({
          endpoint_id: req.endpointId,
          source_tx_id: null,
          ...card,
          created_at: BigInt(now),
        });
      }
      // repeats-number and start-date formats are checked by validateFields (main/gateway/fields.ts).
      const period = (f.period ?? 'month') as Period;
      const interval = Number(f.interval ?? '1');
      // Without start-date the first charge is one interval after creation: the customer paid
      // for the current period with the payment that made the card reference.
      const anchor = f['start-date']
        ? parseStartDate(f['start-date'], now)
        : addPeriods(now, period, interval, 1);
      const plan = engine.store.insertRecurring({
        endpoint_id: req.endpointId,
        client_orderid: coidOf(req),
        card_ref_id: ref.id,
        amount_minor: minorOf(f.amount, f.currency),
        currency: f.currency ?? '',
        period,
        interval: BigInt(interval),
        repeats_left: f['repeats-number'] ? BigInt(f['repeats-number']) : null,
        next_due_at: BigInt(anchor),
        anchor_at: BigInt(anchor),
        server_callback_url: f.server_callback_url ?? null,
        created_at: BigInt(now),
      });
      return {
        ...head('create-recurring-payment-response', req.endpointId, coidOf(req), undefined),
        'recurring-payment-id': String(plan.id),
        'card-ref-id': String(ref.id),
      };
    },
  },
  PAYOUT_V4_CHECK: {
    mode: 'new',
    // Registered and validated, but held at 'checked' until payout-pay releases it.
    handle: (engine, req) => asyncAnswer(req, createPayout(engine, req, 'checked')),
  },
  PAYOUT_V4_PAY: {
    mode: 'reference',
    handle(engine, req) {
      const tx = referenced(engine, req);
      if (tx.kind !== 'payout' || tx.operation !== 'PAYOUT_V4_CHECK') {
        throw refuse(
          'WRONG_STATE',
          `Order ${tx.id} was not registered by payout-check; payout-pay executes only a checked payout.`,
        );
      }
      if (tx.stage !== 'checked') {
        throw refuse(
          'WRONG_STATE',
          `Payout ${tx.id} was already paid; a checked payout is executed once. Ask status for its outcome.`,
        );
      }
      return asyncAnswer(req, engine.queue(tx));
    },
  },
  PAN_ELIGIBILITY_SEND: {
    mode: 'new',
    handle(engine, req) {
      const ref = cardRefOf(engine, req, 'sending-card-ref-id');
      const tx = engine.create({
        endpoint_id: req.endpointId,
        client_orderid: coidOf(req),
        operation: req.def.name,
        kind: 'pan-eligibility',
        amount_minor: 0n,
        currency: '',
        ...cardOfRef(ref),
        card_ref_id: ref.id,
        ...(cardExpired(ref, engine.now())
          ? {
              plan: 'decline' as const,
              decline_code: '54',
              decline_reason: 'Declined: expired card',
            }
          : {}),
      });
      return asyncAnswer(req, tx);
    },
  },
  TRANSFER_V4: {
    mode: 'new',
    handle(engine, req) {
      const destination = destinationOf(engine, req, [
        'destination-card-no',
        'destination_card_recurring_payment_id',
      ]);
      if (req.fields.credit_card_number) {
        need(req, ['expire_month', 'expire_year', 'cvv2'], 'with credit_card_number');
        return asyncAnswer(req, cardPayment(engine, req, 'transfer', { destination }));
      }
      if (!req.fields.card_recurring_payment_id) {
        throw refuse(
          'MISSING_FIELD',
          `${req.def.name} needs a source card: credit_card_number or card_recurring_payment_id.`,
        );
      }
      const ref = cardRefOf(engine, req, 'card_recurring_payment_id');
      const tx = storedCardPayment(engine, req, 'transfer', ref);
      return asyncAnswer(req, engine.store.updateTx(tx.id, { destination }));
    },
  },
  TRANSFER_BY_REF_V4: {
    mode: 'new',
    handle(engine, req) {
      need(req, ['amount', 'currency'], '(the sandbox has no preset transfer amount)');
      const ref = cardRefOf(engine, req, 'sending-card-ref-id');
      const destination = destinationOf(engine, req, [
        'destination-card-no',
        'destination-card-ref-id',
      ]);
      const tx = storedCardPayment(engine, req, 'transfer', ref);
      return asyncAnswer(req, engine.store.updateTx(tx.id, { destination }));
    },
  },
};

/** Fingerprint of a request's fields: same operation, same client_orderid, same fields = same request. */
export function fingerprint(fields: Readonly<Record<string, string>>): string {
  const sorted = Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/**
 * Runs one operation in one SQLite transaction: the repeat check, the client_orderid rules,
 * the handler, and the recorded answer commit together or not at all. With `dedupe: false`
 * (the `noDedupe` misbehaviour) repeats are not absorbed: every request is a new transaction.
 */
export function runOperation(
  engine: Engine,
  req: OpRequest,
  options: { dedupe: boolean } = { dedupe: true },
): Fields {
  const handler = HANDLERS[req.def.name];
  const { store } = engine;
  // A read records nothing and runs to its end without yielding, so no write can come between
  // its queries: it needs no SQLite transaction (a BEGIN and a COMMIT on every status).
  if (handler.mode === 'read') return handler.handle(engine, req);
  return store.atomically(() => {
    // A follow-up under its order's own client_orderid is a new transaction each time: the
    // operator's clients send every capture and return that way (readings.ts).
    const replayable =
      options.dedupe &&
      (handler.mode === 'new' ||
        (handler.mode === 'follow-up' && !carriesOrdersOwnId(engine, req)));
    const coid = coidOf(req);
    // Only answers that can be replayed need the fingerprint (status, the busiest, cannot).
    const print = replayable ? fingerprint(req.fields) : '';
    if (replayable) {
      const prior = store.answer(req.endpointId, req.def.name, coid);
      if (prior) {
        if (prior.fingerprint === print) return JSON.parse(prior.fields) as Fields;
        throw refuse(
          'DUPLICATE_ORDER',
          `client_orderid ${coid} was already used for ${req.def.name} with different fields; use a fresh client_orderid for a new request.`,
        );
      }
    }
    if (handler.mode === 'new' && options.dedupe) {
      const existing = store.latestByClientOrderId(req.endpointId, coid);
      if (existing) {
        throw refuse(
          'DUPLICATE_ORDER',
          `client_orderid ${coid} already names order ${existing.id} (${existing.kind}); use a fresh client_orderid for a new order.`,
        );
      }
    }
    const fields = handler.handle(engine, req);
    if (replayable)
      store.saveAnswer(
        req.endpointId,
        req.def.name,
        coid,
        print,
        JSON.stringify(fields),
        engine.now(),
      );
    return fields;
  });
}

/** A payout to the request's destination: one step (queued) or registered by payout-check. */
function createPayout(engine: Engine, req: OpRequest, stage?: 'checked') {
  return engine.create({
    ...newTxColumns(req),
    kind: 'payout',
    destination: destinationOf(engine, req),
    ...(stage ? { stage } : {}),
  });
}
