// The one form that moves money on Payouts, Rebill, Subscriptions, Payment links, Card
// references and Payouts to pay: the role fence (components/RoleFence), the fields in one
// fenced fieldset, the submit button and the profile's environment, the check of every field
// before the confirmation (all problems at once, focus on the first), the confirmation (typed
// amount on production), and the outcome with its fenced "Ask again" and "New…". Each screen
// brings only its fields, its check and its words, so none can build a form that forgets the
// fence, the checks or the production rule.

import { useRef, type ComponentProps, type ReactNode } from 'react';

import { EnvironmentBadge } from '../components/EnvironmentBadge';
import { ErrorNotice } from '../components/Notice';
import { FencedForm, RoleFence } from '../components/RoleFence';
import type { ProfileView } from '../profile-context';
import { ActionOutcome } from './ActionOutcome';
import type { Checked } from './checks';
import { ConfirmMoneyAction } from './ConfirmMoneyAction';
import type { MoneyAction } from './useMoneyAction';
import './money.css';

interface AmountRequest {
  clientOrderId: string;
  amount: string;
  currency: string;
}

export function MoneyForm<Req extends AmountRequest>({
  action,
  profile,
  label,
  submitLabel,
  blocked = false,
  onReview,
  confirm,
  outcome,
  children,
}: {
  action: MoneyAction<Req>;
  /** The active profile: its environment is shown by the button and rules the confirmation. */
  profile: ProfileView;
  /** The form's accessible name: "Payout", "Rebill"... */
  label: string;
  submitLabel: string;
  /** Cannot be sent even by whoever may (no RSA key): the screen says why beside its fields. */
  blocked?: boolean;
  /** Every field checked, and the request to review built with this action's id. */
  onReview: (clientOrderId: string) => Checked<Req>;
  confirm: Omit<ComponentProps<typeof ConfirmMoneyAction<Req>>, 'action' | 'production'>;
  outcome: Omit<ComponentProps<typeof ActionOutcome<Req>>, 'action'>;
  /** The fields. */
  children: ReactNode;
}) {
  const locked = action.phase !== 'edit';
  const form = useRef<HTMLFormElement>(null);
  return (
    <RoleFence need="money">
      {action.stopped && !action.stopped.field && (
        <ErrorNotice error={action.stopped.error} title="Nothing was sent:" />
      )}
      <FencedForm
        ref={form}
        className="money-form card"
        noValidate
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          if (!action.clientOrderId || blocked) return;
          if (!action.submit(onReview(action.clientOrderId)))
            // After React has drawn the problems: the first field with one takes the focus.
            requestAnimationFrame(() =>
              form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
            );
        }}
      >
        {children}
        <div className="button-row">
          <button
            type="submit"
            className="primary"
            disabled={locked || blocked || !action.clientOrderId}
          >
            {submitLabel}
          </button>
          <EnvironmentBadge environment={profile.environment} />
        </div>
      </FencedForm>
      <ConfirmMoneyAction
        action={action}
        production={profile.environment === 'production'}
        {...confirm}
      />
      <ActionOutcome action={action} {...outcome} />
    </RoleFence>
  );
}
