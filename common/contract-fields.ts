// The bricks every part of the bridge's contract is made of (common/contract.ts lists the
// calls): ids, bounded text, text that may not carry card data, money as decimal text, and the
// call shape itself. Money crosses as decimal text, never as a number.

import { z } from 'zod';

import { findCardData } from './card-data';
import { ORDERID_MESSAGE, unsafeTextMessage } from './text-rules';
import { str } from './text-schema';

export const id = str().trim().min(1).max(128);
export const text = (max: number) => str().max(max);
/**
 * Text a person writes that is stored, exported or sent (reasons, notes, descriptions,
 * comments): it may not carry card data (common/card-data.ts).
 */
export const freeText = (max: number) =>
  text(max).superRefine((value, ctx) => {
    const found = findCardData(value);
    if (found) ctx.addIssue({ code: 'custom', message: found.message });
  });
/** A profile's text field: trimmed, and free of control and text-direction characters. */
export const profileText = (max: number, label: string) =>
  text(max)
    .trim()
    .superRefine((value, ctx) => {
      const message = unsafeTextMessage(value, label);
      if (message) ctx.addIssue({ code: 'custom', message });
    });
/**
 * Major units as text, e.g. "10.42", "5000" (JPY), "12.345" (KWD). The shape only: how many
 * decimals the order's currency allows is checked where the currency is known (common/money.ts).
 */
export const moneyText = str()
  .trim()
  .regex(
    /^(0|[1-9]\d*)(\.\d{1,3})?$/,
    'Write the amount with digits and a dot, at most as many decimals as the currency has, for example 10.42.',
  )
  .refine(
    (value) => value.split('.')[0]!.length <= 13,
    'That amount is too large: at most 13 digits before the dot.',
  );

export const gatewayOrderId = text(64)
  .trim()
  .refine((value) => value === '' || /^\d+$/.test(value), ORDERID_MESSAGE);

export const empty = z.object({}).strict();
export const byProfile = z.object({ profileId: id }).strict();
export const byId = z.object({ id }).strict();
/** The two ids of a money action: the profile, and the action id the screen got when it opened. */
export const actionId = { profileId: id, clientOrderId: id };

export const saveResultSchema = z.object({ saved: z.boolean(), path: z.string().optional() });

export interface CallDef<Req extends z.ZodType, Res extends z.ZodType> {
  request: Req;
  result: Res;
}
export const call = <Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  result: Res,
): CallDef<Req, Res> => ({ request, result });
