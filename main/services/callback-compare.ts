// Compares a callback whose checksum matched with what the gateway says about the same order.
// The checksum covers status, orderid and client_orderid only: a callback with a changed amount
// (or one made by someone who holds the control key) passes it. The gateway's own status
// answer is the final word, so every figure the callback states and the gateway answers is
// compared, and any difference is the verdict.

import { readMoney, currencyExponent } from '../../common/money';
import type { StatusResponse } from '../gateway/response';

/** One figure on which the callback and the gateway disagree. */
export interface CallbackDifference {
  field: 'status' | 'amount' | 'currency' | 'type';
  /** As the callback states it. */
  callback: string;
  /** As the gateway answers it now. */
  gateway: string;
}

/** Equal amounts written differently (10.5 and 10.50) are the same; unreadable text differs. */
function sameAmount(callback: string, gateway: string, currency: string | undefined): boolean {
  const exponent = currencyExponent(currency);
  const a = readMoney(callback.trim(), exponent);
  const b = readMoney(gateway.trim(), exponent);
  if (!a.ok || !b.ok) return callback.trim() === gateway.trim();
  return a.minor === b.minor;
}

/** Every figure the callback states that the gateway's answer contradicts. */
export function callbackDifferences(
  params: Readonly<Record<string, string>>,
  gateway: StatusResponse,
): CallbackDifference[] {
  const differences: CallbackDifference[] = [];
  const compare = (field: CallbackDifference['field'], answer: string | undefined) => {
    const stated = params[field]?.trim();
    if (!stated || answer === undefined || answer === '') return;
    const same =
      field === 'amount'
        ? sameAmount(stated, answer, gateway.currency)
        : field === 'currency'
          ? stated.toUpperCase() === answer.toUpperCase()
          : stated === answer;
    if (!same) differences.push({ field, callback: stated, gateway: answer });
  };
  compare('status', gateway.status);
  compare('amount', gateway.amount);
  compare('currency', gateway.currency);
  compare('type', gateway.transactionType);
  return differences;
}

/** "49.90 EUR, not 4990.00" and "status approved, not declined", joined for one sentence. */
export function describeDifferences(
  differences: readonly CallbackDifference[],
  params: Readonly<Record<string, string>>,
  gateway: StatusResponse,
): string {
  const of = (field: CallbackDifference['field']) => differences.find((d) => d.field === field);
  const parts: string[] = [];
  const status = of('status');
  if (status) parts.push(`status ${status.gateway}, not ${status.callback}`);
  const type = of('type');
  if (type) parts.push(`type ${type.gateway}, not ${type.callback}`);
  if (of('amount') || of('currency')) {
    const stated = [params.amount?.trim(), params.currency?.trim()].filter(Boolean).join(' ');
    const answered = [gateway.amount, gateway.currency].filter(Boolean).join(' ');
    parts.push(`${answered}, not ${stated}`);
  }
  return parts.join('; ');
}
