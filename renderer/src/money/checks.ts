// The checks every money form runs before its confirmation opens: every field at once, each
// problem in the clerk's words beside its field. Main checks everything again (it is the
// authority); these only keep a request that cannot go from ever being confirmed.

import { findCardData, passesLuhn } from '../../../common/card-data';
import { amountProblem, normalisedAmount } from './amount';

/** Problems by the form's field name; an empty object means the form may be confirmed. */
export type Problems = Partial<Record<string, string>>;

/** What a form's check gives: the request to confirm, or every problem found. */
export type Checked<Req> = { request: Req; problems?: undefined } | { problems: Problems };

/** Collects problems field by field, then gives the request only when there are none. */
export class FormCheck {
  readonly problems: Problems = {};

  /** Records `problem` for `field` unless that field already has one. */
  add(field: string, problem: string | undefined): this {
    if (problem && this.problems[field] === undefined) this.problems[field] = problem;
    return this;
  }

  /** A field that must not be empty. */
  required(field: string, value: string, sentence: string): this {
    return this.add(field, value.trim() ? undefined : sentence);
  }

  /** Free text that is stored or sent: no card number or security code in it. */
  freeText(field: string, value: string): this {
    return this.add(field, findCardData(value)?.message);
  }

  /** Amount and currency together: the currency first, then the amount in its exponent. */
  money(amount: string, currency: string, names = { amount: 'amount', currency: 'currency' }) {
    const code = currency.trim().toUpperCase();
    const currencyOk = /^[A-Z]{3}$/.test(code);
    this.add(
      names.currency,
      currencyOk ? undefined : 'Write the three-letter currency code, for example EUR.',
    );
    this.add(names.amount, amountProblem(amount, undefined, currencyOk ? code : ''));
    return {
      currency: code,
      amount: normalisedAmount(amount, currencyOk ? code : '') ?? amount.trim(),
    };
  }

  /** The request when nothing was found, else the problems. */
  result<Req>(build: () => Req): Checked<Req> {
    return Object.keys(this.problems).length > 0
      ? { problems: this.problems }
      : { request: build() };
  }
}

/** A card number typed for a payout: digits (spaces and dashes allowed) that pass Luhn. */
export function cardNumberProblem(value: string): string | undefined {
  const digits = value.replace(/[\s-]/g, '');
  if (!digits) return 'Type the card number that receives the payout.';
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits))
    return 'This is not a card number: check the 12 to 19 digits on the card.';
  return undefined;
}
