// Rebill (finance): charge a card reference an amount with a description (REBILL), followed to
// its final status like any payment; then it is an order like the others (refund, void on
// Orders).

import { useId, useState } from 'react';

import { paydesk, unwrap } from '../../api';
import { useActiveProfile } from '../../profile-context';
import { hrefOf } from '../../route';
import { showMoney } from '../../money/amount';
import { describedBy, Field } from '../../money/Field';
import { MoneyForm } from '../../money/MoneyForm';
import { FormCheck } from '../../money/checks';
import { useMoneyAction } from '../../money/useMoneyAction';
import '../../money/money.css';

interface RebillRequest {
  profileId: string;
  clientOrderId: string;
  cardRefId: string;
  amount: string;
  currency: string;
  description: string;
}

export function RebillScreen({ cardRef }: { cardRef?: string }) {
  const { active } = useActiveProfile();
  const ids = useId();
  const [values, setValues] = useState({
    cardRefId: cardRef ?? '',
    amount: '',
    currency: 'EUR',
    description: '',
  });
  const action = useMoneyAction((request: RebillRequest) =>
    unwrap(paydesk().cards.rebill(request)),
  );
  if (!active) return null;
  const locked = action.phase !== 'edit';
  const input = (
    name: keyof typeof values,
    label: string,
    hint?: string,
    inputMode?: 'numeric' | 'decimal',
  ) => {
    const id = `${ids}-${name}`;
    const error = action.problemOf(name, name === 'description' ? 'order_desc' : name);
    return (
      <Field id={id} label={label} {...(hint ? { hint } : {})} error={error}>
        <input
          {...describedBy(id, Boolean(hint), error)}
          value={values[name]}
          disabled={locked}
          {...(inputMode ? { inputMode } : {})}
          onChange={(e) => {
            setValues((v) => ({ ...v, [name]: e.target.value }));
            action.clearProblem(name);
          }}
        />
      </Field>
    );
  };
  const request = (clientOrderId: string) => {
    const check = new FormCheck();
    const cardRefId = values.cardRefId.trim();
    check.add(
      'cardRefId',
      /^\d{1,18}$/.test(cardRefId)
        ? undefined
        : 'Enter the card reference: the number the gateway gave when the card was saved, for example 1000007.',
    );
    const money = check.money(values.amount, values.currency);
    check
      .required('description', values.description, 'Say what the charge is for.')
      .freeText('description', values.description);
    return check.result<RebillRequest>(() => ({
      profileId: active.id,
      clientOrderId,
      cardRefId,
      ...money,
      description: values.description.trim(),
    }));
  };
  const orderId = action.entry?.orderId;
  return (
    <div>
      <h1>Rebill</h1>
      <p className="field-hint">
        Charge a saved card without the cardholder present. Find a card on{' '}
        <a href={hrefOf({ screen: 'card-info' })}>Card references</a>.
      </p>
      <MoneyForm
        action={action}
        profile={active}
        label="Rebill"
        submitLabel="Charge card…"
        onReview={request}
        confirm={{
          title: 'Charge this card?',
          confirmLabel: (request) => `Charge ${showMoney(request.amount)} ${request.currency}`,
          children: (request) => (
            <>
              <p>
                Charge{' '}
                <strong className="money">
                  {showMoney(request.amount)} {request.currency}
                </strong>{' '}
                to card reference <strong>{request.cardRefId}</strong> for “
                {request.description.trim()}”, on profile “{active.name}”.
              </p>
              <p>The cardholder is not present; the charge can later be refunded from Orders.</p>
            </>
          ),
        }}
        outcome={{
          what: 'The charge',
          newLabel: 'New charge',
          approved: orderId && (
            <a href={hrefOf({ screen: 'lookup', param: orderId })}>Open order {orderId}</a>
          ),
        }}
      >
        {input('cardRefId', 'Card reference', undefined, 'numeric')}
        <div className="field-pair field-pair-amount">
          {input('amount', 'Amount', undefined, 'decimal')}
          {input('currency', 'Currency')}
        </div>
        {input(
          'description',
          'Description',
          'What the charge is for: the cardholder’s statement and the auditors show it.',
        )}
      </MoneyForm>
    </div>
  );
}
