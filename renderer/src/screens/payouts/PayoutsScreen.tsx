// Payouts (finance): one step (v2 PAYOUT, paid at once) or two (v4: checked now, paid later on
// "Payouts to pay"). The destination is a card number, a card reference, a bank account or a
// phone number (SBP). A typed card number goes to main and the gateway and is shown here only
// masked once the form is confirmed; once the payout is sent the field itself holds only the
// masked number ("Ask again" sends the request kept by the action, never the form).

import { useEffect, useId, useState } from 'react';

import type { z } from 'zod';

import type { payoutRequestSchema } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { Notice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { hrefOf } from '../../route';
import { describedBy, Field, maskCard } from '../../money/Field';
import { MoneyForm } from '../../money/MoneyForm';
import { showMoney } from '../../money/amount';
import { cardNumberProblem, FormCheck } from '../../money/checks';
import { useMoneyAction } from '../../money/useMoneyAction';
import '../../money/money.css';

type PayoutRequest = z.input<typeof payoutRequestSchema>;
type Kind = 'card' | 'card-ref' | 'bank' | 'phone';
type Mode = 'one-step' | 'two-step';

const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'card', label: 'Card number' },
  { kind: 'card-ref', label: 'Card reference' },
  { kind: 'bank', label: 'Bank account' },
  { kind: 'phone', label: 'Phone (SBP)' },
];

export function PayoutsScreen() {
  const { active } = useActiveProfile();
  const ids = useId();
  const [mode, setMode] = useState<Mode>('one-step');
  const [kind, setKind] = useState<Kind>('card');
  const [values, setValues] = useState({
    cardNumber: '',
    cardRefId: '',
    accountNumber: '',
    bankName: '',
    bic: '',
    phone: '',
    receiverFirstName: '',
    receiverLastName: '',
    amount: '',
    currency: 'EUR',
    purpose: '',
    description: '',
  });
  const action = useMoneyAction((request: PayoutRequest) =>
    unwrap(
      mode === 'two-step' ? paydesk().payouts.check(request) : paydesk().payouts.send(request),
    ),
  );
  // Sent (answered, lost or refused): the full card number leaves the form at once.
  const sent = action.phase === 'sent' || action.phase === 'lost' || action.phase === 'refused';
  useEffect(() => {
    if (sent)
      setValues((v) =>
        /\d{12}/.test(v.cardNumber.replace(/[\s-]/g, ''))
          ? { ...v, cardNumber: maskCard(v.cardNumber) }
          : v,
      );
  }, [sent]);
  if (!active) return null;
  const noKey = mode === 'two-step' && !active.hasPrivateKey;
  const set = (name: keyof typeof values) => (value: string) =>
    setValues((v) => ({ ...v, [name]: value }));
  const err = (...fields: string[]) => action.problemOf(...fields);
  const locked = action.phase !== 'edit';

  const destination = (): PayoutRequest['destination'] => {
    switch (kind) {
      case 'card':
        return { kind, cardNumber: values.cardNumber };
      case 'card-ref':
        return { kind, cardRefId: values.cardRefId };
      case 'bank':
        return {
          kind,
          accountNumber: values.accountNumber,
          bankName: values.bankName,
          bic: values.bic,
        };
      case 'phone':
        return { kind, phone: values.phone };
    }
  };
  const destinationWords = (): string => {
    switch (kind) {
      case 'card':
        return `card ${maskCard(values.cardNumber)}`;
      case 'card-ref':
        return `card reference ${values.cardRefId.trim()}`;
      case 'bank':
        return `account ****${values.accountNumber.replace(/\s/g, '').slice(-4)} at ${values.bankName.trim()} (${values.bic.trim().toUpperCase()})`;
      case 'phone':
        return `phone ****${values.phone.replace(/\D/g, '').slice(-4)} (SBP)`;
    }
  };

  const checkDestination = (check: FormCheck) => {
    switch (kind) {
      case 'card':
        return check.add('cardNumber', cardNumberProblem(values.cardNumber));
      case 'card-ref':
        return check.add(
          'cardRefId',
          /^\d{1,18}$/.test(values.cardRefId.trim())
            ? undefined
            : 'Enter the card reference: the number the gateway gave when the card was saved, for example 1000007.',
        );
      case 'bank':
        return check
          .add(
            'accountNumber',
            /^[A-Za-z0-9]{6,34}$/.test(values.accountNumber.replace(/\s/g, ''))
              ? undefined
              : 'Write the account number (or IBAN) with letters and digits only, 6 to 34 of them.',
          )
          .required('bankName', values.bankName, 'Write the name of the receiving bank.')
          .freeText('bankName', values.bankName)
          .add(
            'bic',
            /^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/.test(values.bic.trim())
              ? undefined
              : 'The BIC is 8 or 11 letters and digits, for example DEUTDEFF or DEUTDEFF500.',
          );
      case 'phone':
        return check.add(
          'phone',
          /^\+?\d{7,15}$/.test(values.phone.replace(/[\s()-]/g, ''))
            ? undefined
            : 'Write the phone number with its country code, for example +44 7700 900123.',
        );
    }
  };

  const request = (clientOrderId: string) => {
    const check = new FormCheck();
    checkDestination(check);
    if (kind === 'bank' || kind === 'phone')
      check.required(
        'receiverLastName',
        values.receiverLastName,
        'Write the receiver’s name as the bank knows it.',
      );
    check
      .freeText('receiverFirstName', values.receiverFirstName)
      .freeText('receiverLastName', values.receiverLastName);
    const money = check.money(values.amount, values.currency);
    check
      .freeText('purpose', values.purpose)
      .required('description', values.description, 'Say what the payout is for.')
      .freeText('description', values.description);
    return check.result<PayoutRequest>(() => ({
      profileId: active.id,
      clientOrderId,
      destination: destination(),
      receiverFirstName: values.receiverFirstName,
      receiverLastName: values.receiverLastName,
      ...money,
      purpose: values.purpose,
      description: values.description.trim(),
    }));
  };

  const input = (
    name: keyof typeof values,
    label: string,
    options: { hint?: string; fields?: string[]; inputMode?: 'numeric' | 'decimal' | 'tel' } = {},
  ) => {
    const id = `${ids}-${name}`;
    const error = err(...(options.fields ?? [name]));
    return (
      <Field id={id} label={label} {...(options.hint ? { hint: options.hint } : {})} error={error}>
        <input
          {...describedBy(id, Boolean(options.hint), error)}
          value={values[name]}
          onChange={(e) => {
            set(name)(e.target.value);
            action.clearProblem(name);
          }}
          disabled={locked}
          autoComplete="off"
          {...(options.inputMode ? { inputMode: options.inputMode } : {})}
        />
      </Field>
    );
  };

  return (
    <div>
      <h1>Payouts</h1>
      <p className="field-hint">
        Send money from the merchant account. One step pays at once; two steps register the payout
        now and pay it later from <a href={hrefOf({ screen: 'payouts-to-pay' })}>Payouts to pay</a>.
      </p>
      <MoneyForm
        action={action}
        profile={active}
        label="Payout"
        submitLabel={mode === 'two-step' ? 'Check payout…' : 'Send payout…'}
        blocked={noKey}
        onReview={request}
        confirm={{
          title: mode === 'two-step' ? 'Check this payout?' : 'Send this payout?',
          confirmLabel: (request) =>
            `${mode === 'two-step' ? 'Check' : 'Pay'} ${showMoney(request.amount)} ${request.currency}`,
          children: (request) => (
            <>
              <p>
                {mode === 'two-step' ? 'Register' : 'Pay'}{' '}
                <strong className="money">
                  {showMoney(request.amount)} {request.currency}
                </strong>{' '}
                to <strong>{destinationWords()}</strong>
                {values.receiverLastName.trim()
                  ? ` (${[values.receiverFirstName, values.receiverLastName]
                      .map((s) => s.trim())
                      .join(' ')
                      .trim()})`
                  : ''}
                , from profile “{active.name}”.
              </p>
              <p>
                {mode === 'two-step'
                  ? 'Nothing is paid yet: the payout waits on “Payouts to pay”.'
                  : 'Money leaves the merchant account; it cannot be called back from here.'}
              </p>
            </>
          ),
        }}
        outcome={{
          what: mode === 'two-step' ? 'The payout check' : 'The payout',
          newLabel: 'New payout',
          onNew: () => {
            // The typed card number is not kept for the next payout.
            setValues((v) => ({ ...v, cardNumber: '' }));
            action.startOver();
          },
          approved:
            action.entry?.status === 'checked' ? (
              <>
                {action.entry.result.destination &&
                  `The gateway registered it to ${action.entry.result.destination}. `}
                It waits to be paid on{' '}
                <a href={hrefOf({ screen: 'payouts-to-pay' })}>Payouts to pay</a>.
              </>
            ) : (
              action.entry?.result.destination && `Paid to ${action.entry.result.destination}.`
            ),
        }}
      >
        <fieldset>
          <legend>How</legend>
          <div className="choice-row">
            {(['one-step', 'two-step'] as const).map((m) => (
              <label key={m}>
                <input
                  type="radio"
                  name={`${ids}-mode`}
                  checked={mode === m}
                  onChange={() => setMode(m)}
                  disabled={locked}
                />
                {m === 'one-step' ? 'One step: pay now' : 'Two steps: check now, pay later'}
              </label>
            ))}
          </div>
        </fieldset>
        {noKey && (
          <Notice kind="warning">
            Two-step payouts are signed with the profile’s RSA key, and “{active.name}” has none.
            Open <a href={hrefOf({ screen: 'keys' })}>Keys</a>, generate or import a key, and give
            public_key.pem to the gateway operator.
          </Notice>
        )}
        <fieldset>
          <legend>Destination</legend>
          <div className="choice-row">
            {KINDS.map((k) => (
              <label key={k.kind}>
                <input
                  type="radio"
                  name={`${ids}-kind`}
                  checked={kind === k.kind}
                  onChange={() => setKind(k.kind)}
                  disabled={locked}
                />
                {k.label}
              </label>
            ))}
          </div>
          {kind === 'card' &&
            input('cardNumber', 'Card number', {
              hint: 'Sent to the gateway only; Paydesk keeps it masked.',
              fields: ['cardNumber', 'destination-card-no'],
              inputMode: 'numeric',
            })}
          {kind === 'card-ref' &&
            input('cardRefId', 'Card reference', {
              fields: ['cardRefId', 'destination-card-ref-id'],
              inputMode: 'numeric',
            })}
          {kind === 'bank' && (
            <>
              {input('accountNumber', 'Account number or IBAN', {
                fields: ['accountNumber', 'account_number'],
              })}
              <div className="field-pair">
                {input('bankName', 'Bank name')}
                {input('bic', 'BIC', { fields: ['bic', 'bank_bic'] })}
              </div>
            </>
          )}
          {kind === 'phone' &&
            input('phone', 'Phone number', {
              hint: 'With the country code, for example +44 7700 900123.',
              fields: ['phone', 'receiver_phone'],
              inputMode: 'tel',
            })}
          <div className="field-pair">
            {input('receiverFirstName', 'Receiver’s first name')}
            {input('receiverLastName', 'Receiver’s last name')}
          </div>
        </fieldset>
        <div className="field-pair field-pair-amount">
          {input('amount', 'Amount', { inputMode: 'decimal' })}
          {input('currency', 'Currency')}
        </div>
        {input('purpose', 'Purpose (optional)')}
        {input('description', 'Description', {
          hint: 'What the payout is for: the gateway and the auditors read it.',
          fields: ['description', 'order_desc'],
        })}
      </MoneyForm>
    </div>
  );
}
