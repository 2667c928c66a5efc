// One capture, void, refund or cancel, from the form to the gateway's final word, on the shared
// money flow (money/useMoneyAction.ts): the action id fetched when the panel opens and kept on
// every "Try again", every field checked before the confirmation, the one confirmation of every
// money screen (money/ConfirmMoneyAction: a void or cancel asks for the order id), and
// what main marked about a failed send deciding what the panel says. This file brings only the
// order's figures, the fields (ActionFields.tsx) and the panel's words.
//
// Everything below the figures sits inside the role fence (components/RoleFence): the form, the
// confirmation's button, "Try again" and "Change and send again" are fenced, so a person whose
// role changes while the panel is open (finance -> support) loses them at once; Close, Done and
// Escape only close the panel and always work.

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';

import type { actionRequestSchema, OrderViewData } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { typeTheAmount, typeTheId } from '../../components/ConfirmDialog';
import { EnvironmentBadge } from '../../components/EnvironmentBadge';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton, FencedForm, RoleFence } from '../../components/RoleFence';
import { amountProblem, normalisedAmount } from '../../money/amount';
import { FormCheck, type Checked } from '../../money/checks';
import { ActionOutcome } from '../../money/ActionOutcome';
import { ConfirmMoneyAction } from '../../money/ConfirmMoneyAction';
import { useMoneyAction } from '../../money/useMoneyAction';
import type { ProfileView } from '../../profile-context';
import { useSchemasSoon, withSchemas, type Contract } from '../../schemas';
import { ActionFields, hasAmountFor, type Field } from './ActionFields';
import { ActionFigures, EntryOutcome } from './action-parts';
import { showMoney } from './money';
import { ACTION_WORDS, type ActionKind } from './words';

type ActionRequest = z.input<typeof actionRequestSchema>;

function isField(value: string | undefined): value is Field {
  return value === 'amount' || value === 'reason' || value === 'note';
}

export function ActionPanel({
  kind,
  order,
  profile,
  onClose,
  onBusyChange,
}: {
  kind: ActionKind;
  order: OrderViewData;
  profile: ProfileView;
  onClose: () => void;
  /** True while something was sent and the panel should not be swapped for another action. */
  onBusyChange?: (busy: boolean) => void;
}) {
  const words = ACTION_WORDS[kind];
  const allowance = order.actions[kind];
  const currency = order.currency ?? '';
  const hasAmount = hasAmountFor(kind);
  const ids = useId();
  const [amount, setAmount] = useState(allowance.max ?? '');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const action = useMoneyAction((request: ActionRequest) =>
    unwrap(paydesk().orders[kind](request)),
  );
  const { phase, settled } = action;
  // The figures come from the order on screen (refreshed with the outcome); once sent, a void
  // or cancel keeps showing the amount it confirmed.
  const [confirmed, setConfirmed] = useState<OrderViewData>();
  const shown = (phase === 'edit' || phase === 'confirm' ? undefined : confirmed) ?? order;

  const amountRef = useRef<HTMLInputElement>(null);
  const reasonRef = useRef<HTMLSelectElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const fields = { amount: amountRef, reason: reasonRef, note: noteRef };
  const outcome = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusField = (field: Field) => fields[field].current?.focus();

  // Focus starts in the first field (never on a button that moves money).
  useEffect(() => {
    const first = hasAmount ? fields.amount.current : fields.reason.current;
    if (first) {
      first.focus();
      if (first instanceof HTMLInputElement) first.select();
    } else heading.current?.focus();
    // Once, when the panel opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => onBusyChange?.(action.busy), [action.busy, onBusyChange]);

  useEffect(() => {
    if (phase === 'sending') heading.current?.focus();
    if (phase === 'refused' || phase === 'lost') outcome.current?.focus();
  }, [phase]);

  useEffect(() => {
    if (settled) outcome.current?.focus();
  }, [settled]);

  // Main named the field that stopped the send: the cursor goes there.
  const stoppedField = action.stopped?.field;
  useEffect(() => {
    if (isField(stoppedField)) requestAnimationFrame(() => focusField(stoppedField));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [action.stopped]);

  useSchemasSoon();

  const check = (clientOrderId: string, contract: Contract): Checked<ActionRequest> => {
    const found = new FormCheck();
    if (hasAmount) found.add('amount', amountProblem(amount, allowance.max, currency));
    if (words.reasons && !reason) found.add('reason', `Choose a reason for the ${words.noun}.`);
    const candidate: ActionRequest = {
      profileId: profile.id,
      orderid: order.orderId,
      clientOrderId,
      // As confirmed and sent: " 12 " is "12.00" (EUR).
      ...(hasAmount ? { amount: normalisedAmount(amount, currency) ?? amount.trim() } : {}),
      ...(reason ? { reason } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    const parsed = contract.actionRequestSchema.safeParse(candidate);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string' && isField(field)) found.add(field, issue.message);
      }
    return found.result(() => candidate);
  };

  const review = (event: FormEvent) => {
    event.preventDefault();
    const clientOrderId = action.clientOrderId;
    if (!clientOrderId) return;
    withSchemas((contract) => {
      const checked = check(clientOrderId, contract);
      if (action.submit(checked) || !checked.problems) return;
      const first = (['amount', 'reason', 'note'] as const).find((f) => checked.problems[f]);
      if (first) focusField(first);
    });
  };

  /** After the gateway closed the action: a new attempt, with a new id and the same values. */
  const startOver = () => {
    action.startOver();
    requestAnimationFrame(() => focusField(hasAmount ? 'amount' : 'reason'));
  };

  // Escape closes the panel, wherever the focus is (closing sends nothing). The dialog answers
  // its own Escape; while sending the panel stays.
  useEffect(() => {
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (phase === 'confirm' || phase === 'sending') return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [phase, onClose]);

  const request = action.request;
  const sentAmount =
    (hasAmount ? request?.amount : kind === 'void' ? shown.amount : shown.actions[kind].max) ??
    undefined;
  const locked = phase !== 'edit' && phase !== 'confirm';
  const production = profile.environment === 'production';
  const titleId = `${ids}-title`;
  const formId = `${ids}-form`;
  const problem = (field: Field) => action.problemOf(field);

  return (
    <section
      className={`card action-panel${production ? ' action-panel-production' : ''}`}
      aria-labelledby={titleId}
      id="action-panel"
    >
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        {words.title} order {order.orderId}
      </h2>
      {production && (
        <p className="action-production-warning">
          Production profile “{profile.name}”: this moves real money.
        </p>
      )}
      <ActionFigures kind={kind} order={order} confirmed={shown} />

      <RoleFence need="money">
        {!allowance.allowed && phase === 'edit' && (
          <Notice kind="warning">
            {words.open} is not possible now: {allowance.reason}
          </Notice>
        )}
        {action.stopped && !isField(action.stopped.field) && (
          <ErrorNotice
            error={action.stopped.error}
            title={action.clientOrderId ? 'Nothing was sent:' : 'The action could not be prepared:'}
          />
        )}

        <FencedForm
          id={formId}
          onSubmit={review}
          noValidate
          className="action-form"
          aria-describedby={`${ids}-what`}
        >
          <p id={`${ids}-what`} className="field-hint">
            {words.hint}
          </p>
          <ActionFields
            kind={kind}
            ids={ids}
            allowance={allowance}
            currency={currency}
            amountRef={amountRef}
            reasonRef={reasonRef}
            noteRef={noteRef}
            values={{ amount, reason, note }}
            onAmount={(value) => {
              setAmount(value);
              action.clearProblem('amount');
            }}
            onReason={(value) => {
              setReason(value);
              action.clearProblem('reason');
              action.clearProblem('note');
            }}
            onNote={(value) => {
              setNote(value);
              action.clearProblem('note');
            }}
            locked={locked}
            problem={problem}
          />
        </FencedForm>

        {sentAmount !== undefined && (
          <ConfirmMoneyAction
            action={action}
            production={production}
            title={`${words.verb} ${showMoney(sentAmount)} ${currency}?`}
            confirmLabel={`${words.verb} ${showMoney(sentAmount)} ${currency}`}
            typed={() =>
              hasAmount
                ? typeTheAmount(sentAmount, currency)
                : typeTheId('the order id', order.orderId)
            }
            onConfirm={() => setConfirmed(order)}
          >
            {(request) => (
              <>
                <dl className="confirm-facts">
                  <dt>Order</dt>
                  <dd>
                    {order.orderId}
                    {order.clientOrderId ? ` (${order.clientOrderId})` : ''}
                  </dd>
                  <dt>
                    {kind === 'void'
                      ? 'Voids the whole'
                      : kind === 'cancel'
                        ? 'Releases'
                        : 'Amount'}
                  </dt>
                  <dd className="confirm-amount money">
                    {showMoney(sentAmount)} {currency}
                  </dd>
                  {request.reason && (
                    <>
                      <dt>Reason</dt>
                      <dd>
                        {request.reason}
                        {request.note ? `: ${request.note}` : ''}
                      </dd>
                    </>
                  )}
                  <dt>Profile</dt>
                  <dd>
                    {profile.name} <EnvironmentBadge environment={profile.environment} />
                  </dd>
                </dl>
                <p className="confirm-final">This cannot be undone.</p>
              </>
            )}
          </ConfirmMoneyAction>
        )}

        {locked ? (
          <ActionOutcome
            action={action}
            what={`The ${words.noun}`}
            className="action-result"
            focusRef={outcome}
            newLabel="Change and send again"
            newWhen="refused"
            onNew={startOver}
            close={{ label: 'Done', whileOpen: 'Close', onClose }}
            words={{
              sending: (
                <p className="action-progress" role="status">
                  <span className="status-pill status-sending">Sending</span> Sending the{' '}
                  {words.noun} of {showMoney(sentAmount)} {currency} to the gateway…
                </p>
              ),
              refusedTitle: `The ${words.noun} was not made.`,
              lostTitle: `The ${words.noun} may or may not have reached the gateway:`,
              lostHint: (
                <>
                  “Try again” sends the same request with the same action id (
                  {request?.clientOrderId}). Paydesk asks the gateway about it first, so it is never
                  processed twice.
                </>
              ),
              askAgain: 'Try again',
              replayed: null,
            }}
            entryWords={(sent) => (
              <EntryOutcome
                entry={sent}
                noun={words.noun}
                currency={currency}
                replayed={action.replayed}
              />
            )}
          />
        ) : (
          <div className="button-row">
            {/* Outside the form's fieldset, tied to the form: the row keeps Close usable. */}
            <FencedButton
              type="submit"
              form={formId}
              className="primary"
              disabled={!action.clientOrderId || !allowance.allowed}
            >
              Review {words.noun}
            </FencedButton>
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        )}
      </RoleFence>
    </section>
  );
}
