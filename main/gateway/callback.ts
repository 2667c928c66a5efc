// Checks a server callback or a browser return from the gateway:
// control = sha1(status + orderid + client_orderid + merchant_control_key) (gateway-notes.md).
// A browser return is a hint, never the final word: the order's status decides.

import { timingSafeEqual } from 'node:crypto';

import { sha1Hex } from './checksum';

export type CallbackCheck = { valid: true } | { valid: false; reason: string };

export function callbackControl(
  status: string,
  orderid: string,
  clientOrderId: string,
  controlKey: string,
): string {
  return sha1Hex(status + orderid + clientOrderId + controlKey);
}

export function verifyCallback(
  params: Readonly<Record<string, string | undefined>>,
  controlKey: string,
): CallbackCheck {
  const { status, orderid, client_orderid: clientOrderId, control } = params;
  for (const [name, value] of Object.entries({
    status,
    orderid,
    client_orderid: clientOrderId,
    control,
  })) {
    if (!value) return { valid: false, reason: `The callback has no ${name}.` };
  }
  if (!controlKey) return { valid: false, reason: 'No control key to check the callback with.' };
  const expected = Buffer.from(
    callbackControl(status!, orderid!, clientOrderId!, controlKey),
    'utf8',
  );
  const given = Buffer.from(control!.trim().toLowerCase(), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      valid: false,
      reason:
        'The callback checksum does not match: it was not sent by the gateway, or was changed on the way.',
    };
  }
  return { valid: true };
}
