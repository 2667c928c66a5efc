// Scheme A: the SHA-1 `control` checksum. Concatenate the values the operation's formula
// names, in order, with no separator, UTF-8, SHA-1, lowercase hex (gateway-notes.md).

import { hash } from 'node:crypto';

import { parseAmount } from './amount';
import { InputError } from './errors';
import type { ControlPart } from './operations';

export interface ControlInputs {
  endpointId: string;
  login: string;
  controlKey: string;
  fields: Readonly<Record<string, string>>;
}

export function sha1Hex(text: string): string {
  // One-shot: no Hash object per request (every request of Scheme A computes one).
  return hash('sha1', text, 'hex');
}

/**
 * The string the checksum is taken over. A field the formula names but the request does not
 * carry contributes nothing: that is how capture and return leave out amount and currency,
 * and how status by client_orderid alone leaves out orderid.
 */
export function controlString(formula: readonly ControlPart[], inputs: ControlInputs): string {
  if (!inputs.controlKey)
    throw new InputError('This profile has no control key; enter it in the profile.', 'controlKey');
  // A loop, not map and join: the sandbox checks one of these on every request.
  let text = '';
  for (const part of formula) {
    switch (part) {
      case 'endpointId':
        text += inputs.endpointId;
        break;
      case 'login':
        text += inputs.login;
        break;
      case 'merchant_control_key':
        text += inputs.controlKey;
        break;
      case 'amount': {
        const value = inputs.fields.amount;
        // Minor units of the request's currency (docs/protocol.md): JPY 5000 is 5000, KWD 12.345 is 12345.
        if (value !== undefined)
          text += parseAmount(value, 'amount', inputs.fields.currency).minor.toString();
        break;
      }
      default:
        text += inputs.fields[part] ?? '';
    }
  }
  return text;
}

export function controlChecksum(formula: readonly ControlPart[], inputs: ControlInputs): string {
  return sha1Hex(controlString(formula, inputs));
}
