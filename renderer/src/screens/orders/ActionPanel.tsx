// One capture, void, refund or cancel, from the form to the gateway's final word. The action id
// (client_orderid) is fetched when the panel opens and is the same on every "Try again": the
// services then ask the gateway about it first, so a lost answer never becomes a second refund.
// Nothing here is retried without a person pressing a button.
//
// Everything below the figures sits inside the role fence (components/RoleFence): the form, the
// confirmation's button, "Try again" and "Change and send again" are fenced, so a person whose
// role changes while the panel is open (finance -> support) loses them at once; Close and Done
// only close the panel and always work.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { z } from 'zod';

import {
  actionRequestSchema,
  type JournalRow,
  type OrderViewData,
} from '../../../../common/contract';
import { BridgeError, errorMessage, FIELD_CODES, paydesk, sendFailure, unwrap } from '../../api';
import { ConfirmDialog, typeTheAmount, typeTheId } from '../../components/ConfirmDialog';
import { EnvironmentBadge } from '../../components/EnvironmentBadge';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton, FencedForm, RoleFence } from '../../components/RoleFence';
import type { ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { SETTLED_STATES, useJournalEntry } from '../../money/journal-entry';
import {
  amountProblem,
  GATEWAY_KNOWS,
  lowerBoundUnknown,
  normalisedAmount,
  showMoney,
} from './money';
import { ACTION_WORDS, STATE_WORDS, type ActionKind } from './words';

type ActionRequest = z.input<typeof actionRequestSchema>;
type Field = 'amount' | 'reason' | 'note';
type FieldErrors = Partial<Record<Field, string>>;
type Phase = 'edit' | 'confirm' | 'sending' | 'sent' | 'lost' | 'refused';

const HAS_AMOUNT: Record<ActionKind, boolean> = {
  capture: true,
  refund: true,
  void: false,
  cancel: false,
};

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
  // The figures always come from the order on screen (one source of truth, refreshed after a
  // capture or refund); only the amount a void or cancel confirmed is kept as it was confirmed.
  const [confirmed, setConfirmed] = useState<OrderViewData>();
  const shown = confirmed ?? order;
  const action = order.actions[kind];
  const shownAction = shown.actions[kind];
  const currency = order.currency ?? '';
  const hasAmount = HAS_AMOUNT[kind];
  const ids = useId();
  const queryClient = useQueryClient();

  const [clientOrderId, setClientOrderId] = useState<string>();
  const [idError, setIdError] = useState<unknown>();
  const [idRound, setIdRound] = useState(0);
  const [amount, setAmount] = useState(action.max ?? '');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<unknown>();
  const [phase, setPhase] = useState<Phase>('edit');
  const [sent, setSent] = useState<{
    request: ActionRequest;
    entry?: JournalRow;
    replayed?: boolean;
  }>();
  const [sendError, setSendError] = useState<unknown>();

  const amountInput = useRef<HTMLInputElement>(null);
  const reasonInput = useRef<HTMLSelectElement>(null);
  const noteInput = useRef<HTMLTextAreaElement>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // A fresh action id when the panel opens, and again only after the gateway closed the last one.
  useEffect(() => {
    let live = true;
    unwrap(paydesk().orders.openAction({}))
      .then((result) => {
        if (live) setClientOrderId(result.clientOrderId);
      })
      .catch((error: unknown) => {
        if (live) setIdError(error);
      });
    return () => {
      live = false;
    };
  }, [idRound]);

  useEffect(() => {
    const first = hasAmount ? amountInput.current : reasonInput.current;
    if (first) {
      first.focus();
      if (first instanceof HTMLInputElement) first.select();
    } else {
      heading.current?.focus();
    }
  }, [hasAmount]);

  const mutation = useMutation({
    mutationFn: (request: ActionRequest) => unwrap(paydesk().orders[kind](request)),
  });

  const followed = useJournalEntry(
    sent?.request.clientOrderId,
    sent?.entry,
    phase === 'sent' || phase === 'lost',
  );
  const entry = followed.data ?? sent?.entry;
  const settled = entry ? SETTLED_STATES.has(entry.state) : false;
  const busy = phase === 'sending' || ((phase === 'sent' || phase === 'lost') && !settled);

  useEffect(() => {
    onBusyChange?.(busy);
  }, [busy, onBusyChange]);

  useEffect(() => {
    if (!settled) return;
    void queryClient.invalidateQueries({ queryKey: keys.orders });
    outcome.current?.focus();
  }, [settled, queryClient]);

  useEffect(() => {
    if (phase === 'sending') heading.current?.focus();
    if (phase === 'refused' || phase === 'lost') outcome.current?.focus();
  }, [phase]);

  const focusField = (field: Field) => {
    const target = { amount: amountInput, reason: reasonInput, note: noteInput }[field].current;
    target?.focus();
  };

  const request = (): ActionRequest | undefined => {
    if (!clientOrderId) return undefined;
    return {
      profileId: profile.id,
      orderid: order.orderId,
      clientOrderId,
      // The amount as confirmed and sent: " 12 " is "12.00" (EUR), for the dialog and the gateway.
      ...(hasAmount ? { amount: normalisedAmount(amount, currency) ?? amount.trim() } : {}),
      ...(reason ? { reason } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
  };

  const validate = (candidate: ActionRequest): FieldErrors => {
    const found: FieldErrors = {};
    if (hasAmount) {
      const problem = amountProblem(amount, action.max, currency);
      if (problem) found.amount = problem;
    }
    if (words.reasons && !reason) found.reason = `Choose a reason for the ${words.noun}.`;
    const parsed = actionRequestSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (typeof field === 'string' && isField(field)) found[field] ??= issue.message;
      }
    }
    return found;
  };

  const review = (event: FormEvent) => {
    event.preventDefault();
    const candidate = request();
    if (!candidate) return;
    const found = validate(candidate);
    setErrors(found);
    setFormError(undefined);
    const first = (['amount', 'reason', 'note'] as const).find((f) => found[f]);
    if (first) {
      focusField(first);
      return;
    }
    setPhase('confirm');
  };

  const send = async (toSend: ActionRequest) => {
    setConfirmed((previous) => previous ?? order);
    setPhase('sending');
    setSendError(undefined);
    setSent((previous) => ({ ...previous, request: toSend }));
    try {
      const result = await mutation.mutateAsync(toSend);
      setSent({ request: toSend, entry: result.entry, replayed: result.replayed });
      setPhase('sent');
    } catch (error) {
      const code = error instanceof BridgeError ? error.code : '';
      const field = error instanceof BridgeError ? error.field : undefined;
      const failure = sendFailure(error);
      if (failure === 'stopped' && FIELD_CODES.has(code)) {
        setSent(undefined);
        setConfirmed(undefined);
        setPhase('edit');
        if (isField(field)) {
          setErrors({ [field]: errorMessage(error) });
          requestAnimationFrame(() => focusField(field));
        } else {
          setFormError(error);
        }
      } else if (failure === 'stopped') {
        setSent(undefined);
        setConfirmed(undefined);
        setPhase('edit');
        setFormError(error);
      } else if (failure === 'closed') {
        setSendError(error);
        setPhase('refused');
      } else {
        // The answer was lost (or the gateway failed): whether it was processed is unknown.
        setSendError(error);
        setPhase('lost');
      }
    } finally {
      void queryClient.invalidateQueries({ queryKey: keys.orders });
      void queryClient.invalidateQueries({ queryKey: keys.journal });
    }
  };

  /** After the gateway closed the action: a new attempt, with a new id and the same values. */
  const startOver = () => {
    setClientOrderId(undefined);
    setIdError(undefined);
    setIdRound((n) => n + 1);
    setSent(undefined);
    setSendError(undefined);
    setConfirmed(undefined);
    setPhase('edit');
    requestAnimationFrame(() => focusField(hasAmount ? 'amount' : 'reason'));
  };

  const confirmAmount = hasAmount
    ? (normalisedAmount(amount, currency) ?? amount.trim())
    : kind === 'void'
      ? shown.amount
      : shownAction.max;
  const sentAmount = sent?.request.amount ?? confirmAmount;
  const locked = phase !== 'edit' && phase !== 'confirm';
  const production = profile.environment === 'production';
  const onHold = kind === 'capture' || kind === 'cancel';
  const already = onHold ? order.captured : order.refunded;
  const alreadyAtLeast = onHold ? order.capturedAtLeast : order.refundedAtLeast;
  const alreadyLabel = onHold ? 'Already captured' : 'Already refunded';
  const leftLabel = onHold ? 'Left on hold' : 'Left to refund';
  const titleId = `${ids}-title`;
  const formId = `${ids}-form`;

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

      <dl className="action-figures">
        <div>
          <dt>
            {kind === 'void'
              ? 'To void, in full'
              : shown.transactionType === 'preauth'
                ? 'Authorized'
                : 'Amount'}
          </dt>
          <dd className="money">
            {showMoney(shown.amount)} {currency}
          </dd>
        </div>
        {kind !== 'void' && already !== null && (
          <div>
            <dt>{alreadyLabel}</dt>
            {lowerBoundUnknown(already, alreadyAtLeast) ? (
              <dd>{GATEWAY_KNOWS}</dd>
            ) : (
              <dd className="money">
                {alreadyAtLeast ? 'at least ' : ''}
                {showMoney(already)} {currency}
              </dd>
            )}
          </div>
        )}
        {action.max !== undefined ? (
          <div>
            <dt>{leftLabel}</dt>
            <dd className="money">
              {showMoney(action.max)} {currency}
            </dd>
          </div>
        ) : (
          alreadyAtLeast && (
            <div>
              <dt>{leftLabel}</dt>
              <dd>{GATEWAY_KNOWS}</dd>
            </div>
          )
        )}
      </dl>

      <RoleFence need="money">
        {idError !== undefined && (
          <ErrorNotice error={idError} title="The action could not be prepared:" />
        )}
        {!action.allowed && phase === 'edit' && (
          <Notice kind="warning">
            {words.open} is not possible now: {action.reason}
          </Notice>
        )}
        {formError !== undefined && <ErrorNotice error={formError} title="Nothing was sent:" />}

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
          {hasAmount && (
            <div className="field">
              <label htmlFor={`${ids}-amount`}>
                Amount to {kind === 'capture' ? 'capture' : 'refund'} ({currency})
              </label>
              <div className="amount-input">
                <input
                  id={`${ids}-amount`}
                  ref={amountInput}
                  name="amount"
                  inputMode="decimal"
                  autoComplete="off"
                  spellCheck={false}
                  value={amount}
                  readOnly={locked}
                  aria-invalid={errors.amount ? true : undefined}
                  aria-describedby={
                    [locked ? '' : `${ids}-amount-hint`, errors.amount ? `${ids}-amount-error` : '']
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  onChange={(e) => {
                    setAmount(e.target.value);
                    if (errors.amount) setErrors((prev) => ({ ...prev, amount: undefined }));
                  }}
                />
                <span className="amount-currency" aria-hidden="true">
                  {currency}
                </span>
              </div>
              {!locked && (
                <span id={`${ids}-amount-hint`} className="field-hint">
                  {action.max !== undefined
                    ? `At most ${showMoney(action.max)} ${currency}, what is left. Lower it for a partial ${words.noun}.`
                    : `Part of this order was changed outside Paydesk, so only the gateway knows what is left; enter the amount. The gateway refuses more than that and says how much is left.`}
                </span>
              )}
              {errors.amount && (
                <span id={`${ids}-amount-error`} className="field-error" role="alert">
                  {errors.amount}
                </span>
              )}
            </div>
          )}
          {words.reasons && (
            <div className="field">
              <label htmlFor={`${ids}-reason`}>Reason</label>
              <select
                id={`${ids}-reason`}
                ref={reasonInput}
                value={reason}
                disabled={locked}
                required
                aria-invalid={errors.reason ? true : undefined}
                aria-describedby={errors.reason ? `${ids}-reason-error` : undefined}
                onChange={(e) => {
                  setReason(e.target.value);
                  setErrors((prev) => ({ ...prev, reason: undefined, note: undefined }));
                }}
              >
                <option value="">Choose a reason…</option>
                {words.reasons.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              {errors.reason && (
                <span id={`${ids}-reason-error`} className="field-error" role="alert">
                  {errors.reason}
                </span>
              )}
            </div>
          )}
          <div className="field">
            <label htmlFor={`${ids}-note`}>
              Note {reason === 'Other' ? '(required for “Other”)' : '(optional)'}
            </label>
            <textarea
              id={`${ids}-note`}
              ref={noteInput}
              rows={2}
              maxLength={500}
              value={note}
              readOnly={locked}
              aria-invalid={errors.note ? true : undefined}
              aria-describedby={errors.note ? `${ids}-note-error` : undefined}
              onChange={(e) => {
                setNote(e.target.value);
                if (errors.note) setErrors((prev) => ({ ...prev, note: undefined }));
              }}
            />
            {errors.note && (
              <span id={`${ids}-note-error`} className="field-error" role="alert">
                {errors.note}
              </span>
            )}
          </div>
        </FencedForm>

        {phase === 'confirm' && sentAmount !== undefined && (
          <ConfirmDialog
            title={`${words.verb} ${showMoney(sentAmount)} ${currency}?`}
            confirmLabel={`${words.verb} ${showMoney(sentAmount)} ${currency}`}
            money={{
              production,
              typed: hasAmount
                ? typeTheAmount(sentAmount, currency)
                : typeTheId('the order id', order.orderId),
            }}
            onCancel={() => setPhase('edit')}
            onConfirm={() => {
              const toSend = request();
              if (toSend) void send(toSend);
            }}
          >
            <dl className="confirm-facts">
              <dt>Order</dt>
              <dd>
                {order.orderId}
                {order.clientOrderId ? ` (${order.clientOrderId})` : ''}
              </dd>
              <dt>
                {kind === 'void' ? 'Voids the whole' : kind === 'cancel' ? 'Releases' : 'Amount'}
              </dt>
              <dd className="confirm-amount money">
                {showMoney(sentAmount)} {currency}
              </dd>
              {reason && (
                <>
                  <dt>Reason</dt>
                  <dd>
                    {reason}
                    {note.trim() ? `: ${note.trim()}` : ''}
                  </dd>
                </>
              )}
              <dt>Profile</dt>
              <dd>
                {profile.name} <EnvironmentBadge environment={profile.environment} />
              </dd>
            </dl>
            <p className="confirm-final">This cannot be undone.</p>
          </ConfirmDialog>
        )}

        {phase === 'sending' && (
          <p className="action-progress" role="status">
            <span className="status-pill status-sending">Sending</span> Sending the {words.noun} of{' '}
            {showMoney(sentAmount)} {currency} to the gateway…
          </p>
        )}

        {(phase === 'sent' || phase === 'lost') && entry && (
          <EntryOutcome
            entry={entry}
            noun={words.noun}
            currency={currency}
            replayed={sent?.replayed ?? false}
            outcomeRef={outcome}
          />
        )}

        {phase === 'lost' && !settled && (
          <div className="action-lost" ref={outcome} tabIndex={-1}>
            <ErrorNotice
              error={sendError}
              title={`The ${words.noun} may or may not have reached the gateway:`}
            />
            <p className="field-hint">
              “Try again” sends the same request with the same action id (
              {sent?.request.clientOrderId}). Paydesk asks the gateway about it first, so it is
              never processed twice.
            </p>
          </div>
        )}

        {phase === 'refused' && (
          <div className="action-refused" ref={outcome} tabIndex={-1}>
            <ErrorNotice error={sendError} title={`The ${words.noun} was not made.`} />
          </div>
        )}

        <div className="button-row">
          {!locked && (
            // Outside the form's fieldset, tied to the form: the row keeps Close usable.
            <FencedButton
              type="submit"
              form={formId}
              className="primary"
              disabled={!clientOrderId || !action.allowed}
            >
              Review {words.noun}
            </FencedButton>
          )}
          {phase === 'lost' && !settled && sent && (
            <FencedButton className="primary" onClick={() => void send(sent.request)}>
              Try again
            </FencedButton>
          )}
          {(phase === 'refused' || (entry?.state === 'refused' && settled)) && (
            <FencedButton onClick={startOver}>Change and send again</FencedButton>
          )}
          {phase !== 'sending' && (
            <button type="button" className={settled ? 'primary' : undefined} onClick={onClose}>
              {settled || phase === 'refused' ? 'Done' : 'Close'}
            </button>
          )}
        </div>
      </RoleFence>
    </section>
  );
}

function EntryOutcome({
  entry,
  noun,
  currency,
  replayed,
  outcomeRef,
}: {
  entry: JournalRow;
  noun: string;
  currency: string;
  replayed: boolean;
  outcomeRef: RefObject<HTMLDivElement | null>;
}) {
  const amount = entry.amount ? `${showMoney(entry.amount)} ${entry.currency ?? currency}` : '';
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const replayNote = replayed
    ? ' This action had already been sent once; nothing was sent again.'
    : '';

  if (entry.state === 'final') {
    const approved = entry.status === 'approved';
    return (
      <div ref={outcomeRef} tabIndex={-1} className="action-outcome">
        <div className={`notice ${approved ? 'notice-success' : 'notice-error'}`} role="alert">
          <strong>
            {Noun} {amount && `of ${amount} `}
            {entry.status ?? 'final'}.
          </strong>{' '}
          {approved
            ? `The gateway approved it${entry.orderId ? ` (gateway orderid ${entry.orderId})` : ''}.`
            : `${entry.errorMessage ?? 'The gateway did not approve it.'} No money moved.`}
          {replayNote}
        </div>
      </div>
    );
  }
  if (entry.state === 'refused') {
    return (
      <div ref={outcomeRef} tabIndex={-1} className="action-outcome">
        <div className="notice notice-error" role="alert">
          <strong>The gateway refused the {noun}.</strong> {entry.errorMessage} Nothing was
          processed.{replayNote}
        </div>
      </div>
    );
  }
  return (
    <p className="action-progress" role="status">
      <span className={`status-pill status-${entry.state}`}>{STATE_WORDS[entry.state]}</span> {Noun}{' '}
      {amount && `of ${amount} `}sent (action id {entry.clientOrderId}). It stays pending until the
      gateway’s final status; you may close this panel, the order keeps track of it.
    </p>
  );
}
