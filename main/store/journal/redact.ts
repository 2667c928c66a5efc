// What of a request may be kept: the journal and logs get a summary in which a card number is
// masked to its first six and last four digits and a CVV, a 3DS payload or a secret never appears.

const CARD_FIELDS = new Set(['credit_card_number', 'destination-card-no']);
/** Request fields that carry what a person wrote, which must hold no card data. */
const FREE_TEXT_FIELDS = new Set(['comment', 'description', 'order_desc', 'purpose', 'note']);
const DROPPED = /^(cvv2|control|oauth_.*|PaRes|cres|MD|.*password.*|.*secret.*|.*key)$/i;

export function maskPan(pan: string): string {
  const digits = pan.replace(/\D/g, '');
  if (digits.length < 12) return '*'.repeat(digits.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/**
 * The last four digits of the card an entry concerns: those the caller read from the order's
 * status, else those of a card number the request carries. Null when neither is known.
 */
export function cardLastFourOf(
  given: string | undefined,
  fields: Readonly<Record<string, string>>,
): string | null {
  if (given !== undefined && /^\d{4}$/.test(given)) return given;
  for (const name of CARD_FIELDS) {
    const digits = (fields[name] ?? '').replace(/\D/g, '');
    if (digits.length >= 12) return digits.slice(-4);
  }
  return null;
}

export function redactFields(fields: Readonly<Record<string, string>>): Record<string, string> {
  const summary: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (DROPPED.test(name)) continue;
    summary[name] = CARD_FIELDS.has(name) ? maskPan(value) : value;
  }
  return summary;
}

/** The request's free-text fields (comment, description, ...), for the card-data guard. */
export function freeTextFields(fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => FREE_TEXT_FIELDS.has(name)));
}
