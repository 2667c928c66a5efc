// The confirmation of a money form (payouts, rebill, subscriptions, payment links): the one
// ConfirmDialog, shown while the action waits for it, with the amount typed on a production
// profile, and its buttons wired to the action path. Each screen says only what will happen;
// none can leave out the production rule or confirm something other than what it reviewed.

import type { ReactNode } from 'react';

import { ConfirmDialog, typeTheAmount } from '../components/ConfirmDialog';
import type { MoneyAction } from './useMoneyAction';

interface AmountRequest {
  clientOrderId: string;
  /** What the clerk types on production: the amount moved (a subscription: each charge's). */
  amount: string;
  currency: string;
}

export function ConfirmMoneyAction<Req extends AmountRequest>({
  action,
  production,
  title,
  confirmLabel,
  children,
}: {
  action: MoneyAction<Req>;
  /** The active profile is a production one. */
  production: boolean;
  title: string;
  confirmLabel: string | ((request: Req) => string);
  /** What will happen, in words, for the request under review. */
  children: (request: Req) => ReactNode;
}) {
  const request = action.request;
  if (action.phase !== 'confirm' || !request) return null;
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={typeof confirmLabel === 'string' ? confirmLabel : confirmLabel(request)}
      money={{ production, typed: typeTheAmount(request.amount, request.currency) }}
      onConfirm={() => void action.confirm()}
      onCancel={action.back}
    >
      {children(request)}
    </ConfirmDialog>
  );
}
