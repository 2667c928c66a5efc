// The confirmation of every money action (Orders' capture, void, refund and cancel; payouts,
// rebill, subscriptions, payment links): the one ConfirmDialog, shown while the action waits for
// it, with what must be typed on a production profile, and its buttons wired to the action path.
// Each screen says only what will happen; none can leave out the production rule or confirm
// something other than what it reviewed. What is typed is the amount moved, or (a void or cancel,
// which name no amount) what the screen names instead, e.g. the order id.

import type { ReactNode } from 'react';

import { ConfirmDialog, typeTheAmount, type TypedConfirmation } from '../components/ConfirmDialog';
import type { MoneyAction } from './useMoneyAction';

interface AmountRequest {
  clientOrderId: string;
  /** What the clerk types on production: the amount moved (a subscription: each charge's). */
  amount?: string;
  currency?: string;
}

export function ConfirmMoneyAction<Req extends AmountRequest>({
  action,
  production,
  title,
  confirmLabel,
  typed,
  onConfirm,
  children,
}: {
  action: MoneyAction<Req>;
  /** The active profile is a production one. */
  production: boolean;
  title: string | ((request: Req) => string);
  confirmLabel: string | ((request: Req) => string);
  /** What production asks to type, when not the request's amount (a void: the order id). */
  typed?: (request: Req) => TypedConfirmation;
  /** Told just before the send (Orders keeps the figures the clerk confirmed). */
  onConfirm?: (request: Req) => void;
  /** What will happen, in words, for the request under review. */
  children: (request: Req) => ReactNode;
}) {
  const request = action.request;
  if (action.phase !== 'confirm' || !request) return null;
  const text = (of: string | ((request: Req) => string)) =>
    typeof of === 'string' ? of : of(request);
  return (
    <ConfirmDialog
      title={text(title)}
      confirmLabel={text(confirmLabel)}
      money={{
        production,
        typed: typed ? typed(request) : typeTheAmount(request.amount ?? '', request.currency ?? ''),
      }}
      onConfirm={() => {
        onConfirm?.(request);
        void action.confirm();
      }}
      onCancel={action.back}
    >
      {children(request)}
    </ConfirmDialog>
  );
}
