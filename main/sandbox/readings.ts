// Where the operator's own clients read the spec differently from Paydesk, and the sandbox
// accepts both readings (docs/sandbox.md, "Fidelity to real clients"). Each rule names the
// client code that shows what the operator's gateway accepts. The checksum's two forms for a
// capture or return without amount live in auth.ts (verifyControl).

import type { Store } from './db';
import type { Engine } from './engine';
import { coidOf, type OpRequest } from './requests';

/**
 * expire_year with two digits is 20YY. The operator's PHP library can send nothing else: its
 * validator allows 1-2 digits (payneteasy/php-library-payneteasy-api,
 * source/PaynetEasy/PaynetEasyApi/Util/Validator.php, YEAR => ^[0-9]{1,2}$). Its v4 examples send
 * four (payneteasy-v4-api-examples-php, cc-payout.php), as Paydesk does. One digit stays refused.
 */
export function widenExpireYear(fields: Record<string, string>): Record<string, string> {
  const year = fields.expire_year?.trim();
  return year !== undefined && /^\d{2}$/.test(year)
    ? { ...fields, expire_year: `20${year}` }
    : fields;
}

/** The amount and currency of the order a request names by orderid, if it has one. */
export function orderTermsOf(
  store: Store,
  endpointId: string,
  orderid: string | undefined,
): { minor: bigint; currency: string } | undefined {
  if (orderid === undefined || !/^\d{1,18}$/.test(orderid)) return undefined;
  const tx = store.txOf(endpointId, BigInt(orderid));
  return tx && tx.currency !== '' ? { minor: tx.amount_minor, currency: tx.currency } : undefined;
}

/**
 * True when a follow-up carries the client_orderid of the order it acts on, or of that order's
 * first payment. Both of the operator's clients do this on every capture and return (PHP:
 * Query/CaptureQuery.php and ReturnQuery.php send payment.clientId; node-payneteasy:
 * src/pne/captureReq.js and returnReq.js send the payment's transactionUuid), so each such
 * request is a new transaction, never a repeat of the last one.
 */
export function carriesOrdersOwnId(engine: Engine, req: OpRequest): boolean {
  const orderid = req.fields.orderid;
  if (orderid === undefined || !/^\d{1,18}$/.test(orderid)) return false;
  const target = engine.store.txOf(req.endpointId, BigInt(orderid));
  if (!target) return false;
  const coid = coidOf(req);
  return coid === target.client_orderid || coid === engine.root(target).client_orderid;
}
