// Subscriptions (finance): CREATE_RP_V4 on a card reference, or on an approved order whose card
// is saved first. While the form is filled, main checks the schedule and answers with the first
// charges and their dates, by the rule the gateway charges by (a monthly charge keeps the day of
// the month, clamped at month ends); a bad combination gets a sentence at its field.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import type { z } from 'zod';

import type { recurringRequestSchema } from '../../../../common/contract';
import { BridgeError, errorMessage, paydesk, unwrap } from '../../api';
import { Notice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { hrefOf } from '../../route';
import { describedBy, Field } from '../../money/Field';
import { MoneyForm } from '../../money/MoneyForm';
import { showMoney } from '../../money/amount';
import { FormCheck } from '../../money/checks';
import { useMoneyAction } from '../../money/useMoneyAction';
import '../../money/money.css';

type RecurringRequest = z.input<typeof recurringRequestSchema>;
type Source = 'card-ref' | 'order';

export function RecurringScreen({ cardRef }: { cardRef?: string }) {
  const { active } = useActiveProfile();
  const ids = useId();
  const [source, setSource] = useState<Source>('card-ref');
  const [values, setValues] = useState({
    cardRefId: cardRef ?? '',
    orderid: '',
    amount: '',
    currency: 'EUR',
    period: 'month',
    interval: '1',
    startDate: '',
    repeats: '',
    email: '',
    firstName: '',
    lastName: '',
    description: '',
  });
  const schedule = {
    amount: values.amount.trim(),
    currency: values.currency.trim().toUpperCase(),
    period: values.period,
    interval: values.interval.trim(),
    startDate: values.startDate,
    repeats: values.repeats.trim(),
  };
  const preview = useQuery({
    queryKey: ['recurring-preview', schedule],
    queryFn: () => unwrap(paydesk().recurring.preview(schedule)),
    enabled: schedule.amount !== '',
    retry: false,
    placeholderData: keepPreviousData,
  });
  const previewError =
    preview.error instanceof BridgeError && preview.error.field && !preview.isFetching
      ? { field: preview.error.field, message: errorMessage(preview.error) }
      : undefined;
  const action = useMoneyAction(async (request: RecurringRequest) =>
    unwrap(paydesk().recurring.create(request)),
  );
  if (!active) return null;
  const locked = action.phase !== 'edit';
  const noKey = !active.hasPrivateKey;
  const errorOf = (name: string) =>
    action.problemOf(name) ??
    (previewError?.field === name && values.amount.trim() !== ''
      ? previewError.message
      : undefined);
  const set = (name: keyof typeof values) => (value: string) =>
    setValues((v) => ({ ...v, [name]: value }));
  const input = (
    name: keyof typeof values,
    label: string,
    extra: { hint?: string; type?: string; inputMode?: 'numeric' | 'decimal' | 'email' } = {},
  ) => {
    const id = `${ids}-${name}`;
    const error = errorOf(name);
    return (
      <Field id={id} label={label} {...(extra.hint ? { hint: extra.hint } : {})} error={error}>
        <input
          {...describedBy(id, Boolean(extra.hint), error)}
          type={extra.type ?? 'text'}
          value={values[name]}
          disabled={locked}
          {...(extra.inputMode ? { inputMode: extra.inputMode } : {})}
          onChange={(e) => {
            set(name)(e.target.value);
            action.clearProblem(name);
          }}
        />
      </Field>
    );
  };
  const request = (clientOrderId: string) => {
    const check = new FormCheck();
    const money = check.money(values.amount, values.currency);
    // The schedule's own rules are main's (the preview): its sentence stops the review too.
    if (previewError) check.add(previewError.field, previewError.message);
    if (source === 'card-ref')
      check.add(
        'cardRefId',
        /^\d{1,18}$/.test(values.cardRefId.trim())
          ? undefined
          : 'Enter the card reference to charge, for example 1000007.',
      );
    else check.required('orderid', values.orderid, 'Enter the orderid of the approved order.');
    check
      .freeText('firstName', values.firstName)
      .freeText('lastName', values.lastName)
      .required('description', values.description, 'Say what the subscription is for.')
      .freeText('description', values.description);
    return check.result<RecurringRequest>(() => ({
      profileId: active.id,
      clientOrderId,
      ...schedule,
      ...money,
      ...(source === 'card-ref'
        ? { cardRefId: values.cardRefId.trim() }
        : { orderid: values.orderid.trim() }),
      email: values.email,
      firstName: values.firstName,
      lastName: values.lastName,
      description: values.description.trim(),
    }));
  };
  const shown = preview.data;
  const periodId = `${ids}-period`;
  return (
    <div>
      <h1>Subscriptions</h1>
      <p className="field-hint">
        Charge a saved card on a schedule. The gateway makes each charge; Paydesk sets it up.
      </p>
      {noKey && (
        <Notice kind="warning">
          Subscriptions are signed with the profile’s RSA key, and “{active.name}” has none. Open{' '}
          <a href={hrefOf({ screen: 'keys' })}>Keys</a>, generate or import a key, and give
          public_key.pem to the gateway operator.
        </Notice>
      )}
      <MoneyForm
        action={action}
        profile={active}
        label="Subscription"
        submitLabel="Set up subscription…"
        blocked={noKey}
        onReview={request}
        confirm={{
          title: 'Set up this subscription?',
          confirmLabel: 'Set up subscription',
          children: (request) => (
            <>
              <p>
                Charge{' '}
                <strong className="money">
                  {showMoney(request.amount)} {request.currency}
                </strong>{' '}
                to{' '}
                {source === 'card-ref'
                  ? `card reference ${values.cardRefId.trim()}`
                  : `the card of order ${values.orderid.trim()} (saved first)`}
                , on profile “{active.name}”.
              </p>
              {shown && (
                <p>
                  {shown.summary} First charges:{' '}
                  {shown.charges
                    .slice(0, 3)
                    .map((c) => c.date)
                    .join(', ')}
                  .
                </p>
              )}
            </>
          ),
        }}
        outcome={{
          what: 'The subscription',
          newLabel: 'New subscription',
          approved: action.entry?.result['recurring-payment-id'] && (
            <>
              Subscription <strong>{action.entry.result['recurring-payment-id']}</strong>{' '}
              (recurring-payment-id)
              {action.entry.result['card-ref-id']
                ? ` on card reference ${action.entry.result['card-ref-id']}`
                : ''}
              .
            </>
          ),
        }}
      >
        <fieldset>
          <legend>Card to charge</legend>
          <div className="choice-row">
            <label>
              <input
                type="radio"
                name={`${ids}-source`}
                checked={source === 'card-ref'}
                disabled={locked}
                onChange={() => setSource('card-ref')}
              />
              A card reference
            </label>
            <label>
              <input
                type="radio"
                name={`${ids}-source`}
                checked={source === 'order'}
                disabled={locked}
                onChange={() => setSource('order')}
              />
              The card of an approved order (saved first)
            </label>
          </div>
          {source === 'card-ref'
            ? input('cardRefId', 'Card reference', { inputMode: 'numeric' })
            : input('orderid', 'orderid', { inputMode: 'numeric' })}
        </fieldset>
        <fieldset>
          <legend>Schedule</legend>
          <div className="field-pair field-pair-amount">
            {input('amount', 'Amount per charge', { inputMode: 'decimal' })}
            {input('currency', 'Currency')}
          </div>
          <div className="field-pair">
            <Field id={periodId} label="Period" error={errorOf('period')}>
              <select
                {...describedBy(periodId, false, errorOf('period'))}
                value={values.period}
                disabled={locked}
                onChange={(e) => set('period')(e.target.value)}
              >
                <option value="day">Day</option>
                <option value="week">Week</option>
                <option value="month">Month</option>
              </select>
            </Field>
            {input('interval', 'Every how many periods', { inputMode: 'numeric' })}
          </div>
          <div className="field-pair">
            {input('startDate', 'First charge (optional)', {
              type: 'date',
              hint: 'Empty: one period from today.',
            })}
            {input('repeats', 'Number of charges (optional)', {
              inputMode: 'numeric',
              hint: 'Empty: until cancelled.',
            })}
          </div>
          <div className="schedule-preview" aria-live="polite" aria-label="Schedule preview">
            {shown && !previewError ? (
              <>
                <strong>{shown.summary}</strong>
                <ol>
                  {shown.charges.map((c) => (
                    <li key={c.n}>
                      {c.date}: {shown.amount} {shown.currency}
                    </li>
                  ))}
                </ol>
                {(shown.total === null || shown.total > shown.charges.length) && (
                  <span className="field-hint">…and so on.</span>
                )}
              </>
            ) : (
              <span className="field-hint">
                The first charges and their dates show here as you fill in the schedule.
              </span>
            )}
          </div>
        </fieldset>
        <fieldset>
          <legend>Customer</legend>
          {input('email', 'E-mail (optional)', { inputMode: 'email' })}
          <div className="field-pair">
            {input('firstName', 'First name (optional)')}
            {input('lastName', 'Last name (optional)')}
          </div>
          {input('description', 'Description', {
            hint: 'What the subscription is for: the statement and the auditors show it.',
          })}
        </fieldset>
      </MoneyForm>
    </div>
  );
}
