// Card references (support, finance): read one (CARDINFO: brand, BIN, masked number, name,
// expiry, and whether it has expired), and save the card of an approved order as a reference
// (CARDREF, or CARDREF_V4 when the profile has an RSA key) through the one action path.

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import type { CardInfoData } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { ConfirmDialog, typeTheId } from '../../components/ConfirmDialog';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedForm, RoleFence } from '../../components/RoleFence';
import { useActiveProfile } from '../../profile-context';
import { hrefOf } from '../../route';
import { ActionOutcome } from '../../money/ActionOutcome';
import { describedBy, Field } from '../../money/Field';
import { FormCheck } from '../../money/checks';
import { useMoneyAction } from '../../money/useMoneyAction';
import '../../money/money.css';

export function CardInfoScreen({ cardRef }: { cardRef?: string }) {
  const { active } = useActiveProfile();
  // #/card-info/order:1000003 comes from "Save card" on an order.
  const fromOrder = cardRef?.startsWith('order:') ? cardRef.slice('order:'.length) : undefined;
  if (!active) return null;
  return (
    <div>
      <h1>Card references</h1>
      <ReadCard profileId={active.id} initial={fromOrder ? '' : (cardRef ?? '')} />
      <RoleFence need="money">
        <SaveCard initial={fromOrder ?? ''} />
      </RoleFence>
    </div>
  );
}

function ReadCard({ profileId, initial }: { profileId: string; initial: string }) {
  const id = useId();
  const [ref, setRef] = useState(initial);
  const read = useMutation({
    mutationFn: (cardRefId: string) => unwrap(paydesk().cards.info({ profileId, cardRefId })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    read.mutate(ref.trim());
  };
  return (
    <section className="card money-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Read a card reference</h2>
      <form onSubmit={submit} noValidate>
        <Field
          id={`${id}-ref`}
          label="Card reference"
          hint="The number the gateway gave when the card was saved."
          error={undefined}
        >
          <input
            {...describedBy(`${id}-ref`, true, undefined)}
            value={ref}
            inputMode="numeric"
            onChange={(e) => setRef(e.target.value)}
          />
        </Field>
        <div className="button-row">
          <button type="submit" className="primary" disabled={read.isPending}>
            Read card
          </button>
        </div>
      </form>
      {read.error && (
        <ErrorNotice error={read.error} title="The card reference could not be read:" />
      )}
      {read.data && <CardFacts card={read.data} />}
    </section>
  );
}

function CardFacts({ card }: { card: CardInfoData }) {
  return (
    <div aria-label={`Card reference ${card.cardRefId}`} role="group">
      {card.expired && (
        <Notice kind="warning">
          This card expired at the end of {card.expMonth}/{card.expYear}: charges on it will be
          declined.
        </Notice>
      )}
      <dl className="card-facts">
        <dt>Card reference</dt>
        <dd>{card.cardRefId}</dd>
        <dt>Brand</dt>
        <dd>{card.brand ?? 'not given'}</dd>
        <dt>Card</dt>
        <dd className="money">{card.masked ?? 'not given'}</dd>
        <dt>BIN</dt>
        <dd>{card.bin ?? 'not given'}</dd>
        <dt>Name on card</dt>
        <dd>{card.name ?? 'not given'}</dd>
        <dt>Expiry</dt>
        <dd>
          {card.expMonth}/{card.expYear} {card.expired ? '(expired)' : '(valid)'}
        </dd>
      </dl>
      <p className="button-row">
        <a href={hrefOf({ screen: 'rebill', param: card.cardRefId })}>Charge this card</a>
        <a href={hrefOf({ screen: 'recurring', param: card.cardRefId })}>
          Set up a subscription on it
        </a>
      </p>
    </div>
  );
}

function SaveCard({ initial }: { initial: string }) {
  const { active } = useActiveProfile();
  const id = useId();
  const [orderid, setOrderid] = useState(initial);
  const action = useMoneyAction(
    (request: { profileId: string; clientOrderId: string; orderid: string }) =>
      unwrap(paydesk().cards.save(request)),
  );
  if (!active) return null;
  const error = action.problemOf('orderid');
  const ref = action.entry?.result['card-ref-id'];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const clientOrderId = action.clientOrderId;
    if (!clientOrderId) return;
    const check = new FormCheck().add(
      'orderid',
      /^\d{1,20}$/.test(orderid.trim())
        ? undefined
        : 'Enter the orderid of the approved payment: its digits, for example 1000001.',
    );
    if (
      !action.submit(
        check.result(() => ({ profileId: active.id, clientOrderId, orderid: orderid.trim() })),
      )
    )
      requestAnimationFrame(() => document.getElementById(`${id}-order`)?.focus());
  };
  return (
    <section className="card money-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Save the card of an order</h2>
      <p className="field-hint">
        From an approved payment: the gateway keeps the card and gives a card reference to charge it
        later ({active.hasPrivateKey ? 'v4, signed with the profile’s RSA key' : 'v2'}).
      </p>
      {action.stopped && !error && (
        <ErrorNotice error={action.stopped.error} title="Nothing was sent:" />
      )}
      <FencedForm onSubmit={submit} noValidate>
        <Field id={`${id}-order`} label="orderid of the approved payment" error={error}>
          <input
            {...describedBy(`${id}-order`, false, error)}
            value={orderid}
            inputMode="numeric"
            disabled={action.phase !== 'edit'}
            onChange={(e) => {
              setOrderid(e.target.value);
              action.clearProblem('orderid');
            }}
          />
        </Field>
        <div className="button-row">
          <button
            type="submit"
            className="primary"
            disabled={action.phase !== 'edit' || !action.clientOrderId}
          >
            Save card…
          </button>
        </div>
      </FencedForm>
      {action.phase === 'confirm' && (
        <ConfirmDialog
          title="Save this card?"
          confirmLabel="Save card"
          money={{
            production: active.environment === 'production',
            // No amount moves: the order whose card is kept.
            typed: typeTheId('the order id', action.request?.orderid ?? orderid),
          }}
          onConfirm={() => void action.confirm()}
          onCancel={action.back}
        >
          <p>
            Make a card reference from the card of order <strong>{orderid.trim()}</strong>, on
            profile “{active.name}”. The card can then be charged without the cardholder present.
          </p>
        </ConfirmDialog>
      )}
      <ActionOutcome
        action={action}
        what="The card reference"
        newLabel="Save another card"
        approved={
          ref && (
            <>
              Card reference <strong>{ref}</strong>.{' '}
              <a href={hrefOf({ screen: 'card-info', param: ref })}>Read it</a>
            </>
          )
        }
      />
    </section>
  );
}
