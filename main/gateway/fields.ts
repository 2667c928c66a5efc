// Checks of request fields that a clerk can get wrong, applied before anything is signed.
// Each rule says what to fix. Formats come from the spec's Resources table and the public
// record (gateway-notes.md); fields with no known format are passed as given.

import { parseAmount, parseCurrency } from './amount';
import { BROKEN_TEXT_MESSAGE, isWellFormedText } from '../../common/text-rules';
import { InputError } from './errors';
import type { OperationDef } from './operations';

type Rule = (value: string, field: string) => void;

const httpUrl: Rule = (value, field) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      `${field} must be a full web address starting with https://, got ${JSON.stringify(value)}.`,
      field,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InputError(
      `${field} must be an http(s) address, got ${JSON.stringify(value)}.`,
      field,
    );
  }
};

const pattern =
  (re: RegExp, what: string): Rule =>
  (value, field) => {
    if (!re.test(value))
      throw new InputError(`${field} ${what}, got ${JSON.stringify(value)}.`, field);
  };

/** Luhn check: a mistyped card number is caught here rather than as a gateway decline. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const cardNumber: Rule = (value, field) => {
  if (!/^\d{12,19}$/.test(value)) {
    throw new InputError(
      `${field} must be the 12 to 19 digits of the card number without spaces.`,
      field,
    );
  }
  if (!luhnValid(value)) {
    throw new InputError(
      `${field} is not a valid card number (its check digit is wrong); check it for a typo.`,
      field,
    );
  }
};

/** A calendar date written YYYY-MM-DD (2030-02-30 is refused). */
const isoDate: Rule = (value, field) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!)) : undefined;
  if (
    !match ||
    !date ||
    date.getUTCDate() !== +match[3]! ||
    date.getUTCMonth() !== +match[2]! - 1
  ) {
    throw new InputError(
      `${field} must be a date written YYYY-MM-DD, for example 2030-01-31, got ${JSON.stringify(value)}.`,
      field,
    );
  }
};

const RULES: Record<string, Rule> = {
  amount: (v, f) => void parseAmount(v, f),
  currency: (v, f) => void parseCurrency(v, f),
  email: pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address like name@example.com'),
  credit_card_number: cardNumber,
  'destination-card-no': cardNumber,
  cvv2: pattern(/^\d{3,4}$/, 'must be the 3 or 4 digits printed on the card'),
  expire_month: pattern(/^(0[1-9]|1[0-2])$/, 'must be a month written with two digits, 01 to 12'),
  expire_year: pattern(/^\d{4}$/, 'must be a year written with four digits, for example 2029'),
  threeDSCompInd: pattern(
    /^[YNU]$/,
    'must be Y (completed), N (not completed in 10 seconds) or U (no method URL)',
  ),
  redirect_url: httpUrl,
  server_callback_url: httpUrl,
  site_url: httpUrl,
  interval: pattern(/^[1-9]\d{0,3}$/, 'must be a whole number of periods, 1 or more'),
  period: pattern(/^(day|week|month)$/, 'must be day, week or month'),
  'repeats-number': pattern(/^[1-9]\d{0,3}$/, 'must be a whole number of charges, 1 or more'),
  'start-date': isoDate,
  deposit2card: pattern(/^(true|false)$/, 'must be true or false'),
  country: pattern(/^[A-Z]{2}$/, 'must be a two-letter country code, for example DE'),
};

/** Names Paydesk computes itself; a caller that supplies them is refused. */
const RESERVED = /^(control|oauth_.*)$/;
const FIELD_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Names already found neither reserved nor malformed: every request checks its few names with
 * two regular expressions otherwise. Bounded: cleared when it grows past the table's names.
 */
const acceptedNames = new Set<string>();
const ACCEPTED_NAMES_KEPT = 512;

function isIn(this: Record<string, string>, name: string): boolean {
  return name in this;
}

/**
 * Validates the body fields of one operation: reserved names, required fields, pairs that
 * travel together, and the formats above. Returns the fields trimmed, as they will be sent.
 */
export function validateFields(
  def: OperationDef,
  fields: Record<string, string>,
): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, raw] of Object.entries(fields)) {
    const accepted = acceptedNames.has(name);
    if (!accepted && RESERVED.test(name)) {
      throw new InputError(
        `${name} is computed by Paydesk when it signs the request; remove it from the fields.`,
        name,
      );
    }
    if (typeof raw !== 'string') {
      throw new InputError(`${name} must be text.`, name);
    }
    if (!accepted) {
      if (!FIELD_NAME.test(name)) {
        throw new InputError(`${JSON.stringify(name)} is not a valid field name.`, name);
      }
      if (acceptedNames.size >= ACCEPTED_NAMES_KEPT) acceptedNames.clear();
      acceptedNames.add(name);
    }
    // A lone surrogate cannot be percent-encoded (encodeURIComponent throws URIError).
    if (!isWellFormedText(raw)) throw new InputError(`${name}: ${BROKEN_TEXT_MESSAGE}`, name);
    const value = raw.trim();
    if (value === '') continue; // an empty field is the same as an absent one
    clean[name] = value;
  }
  for (const name of def.required) {
    if (!(name in clean)) {
      throw new InputError(`${def.name} needs the field ${name}; fill it in and try again.`, name);
    }
  }
  for (const group of def.requiredOneOf ?? []) {
    if (!group.some(isIn, clean)) {
      throw new InputError(`${def.name} needs one of ${group.join(' or ')}.`, group[0]);
    }
  }
  for (const group of def.together ?? []) {
    const present = group.filter((name) => name in clean);
    if (present.length > 0 && present.length < group.length) {
      const missing = group.filter((name) => !(name in clean));
      throw new InputError(
        `${group.join(' and ')} go together: add ${missing.join(' and ')}, or leave ${present.join(' and ')} out.`,
        missing[0],
      );
    }
  }
  for (const [name, value] of Object.entries(clean)) {
    // An amount has as many decimals as its currency (JPY none, KWD three).
    if (name === 'amount') parseAmount(value, name, clean.currency);
    else RULES[name]?.(value, name);
  }
  return clean;
}
