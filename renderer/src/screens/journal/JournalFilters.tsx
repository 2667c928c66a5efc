// The journal's search form: what a clerk asks ("everything for this order", "what is still
// pending", "refunds last week", "the 14.25 on a card ending 1111", "maria's refund"). The
// filter applies on Search; the list keeps the last one. What each field matches is said once,
// in main/store/journal/filter.ts; the e-mail is a plain text field, so part of one is a search
// (a type=email field would refuse "maria").

import { useId, useState, type FormEvent } from 'react';

import type { JournalFilterInput } from '../../../../common/contract';
import { JOURNAL_ACTIONS } from '../../../../common/journal-actions';
import { offsetOf } from '../../../../common/time';
import type { ProfileView } from '../../profile-context';
import { useSchemasSoon, withSchemas, type Contract } from '../../schemas';

export interface FilterDraft {
  orderRef: string;
  email: string;
  cardLastFour: string;
  /** Exactly this amount, or (amountMin, amountMax) a range; decimal text, never a float. */
  amount: string;
  amountMin: string;
  amountMax: string;
  currency: string;
  operation: string;
  /** '' (any), 'pending', or a journal state. */
  state: string;
  status: string;
  profileId: string;
  /** yyyy-mm-dd from the date inputs, local days. */
  fromDay: string;
  toDay: string;
}

export const EMPTY_DRAFT: FilterDraft = {
  orderRef: '',
  email: '',
  cardLastFour: '',
  amount: '',
  amountMin: '',
  amountMax: '',
  currency: '',
  operation: '',
  state: '',
  status: '',
  profileId: '',
  fromDay: '',
  toDay: '',
};

/** What the clerk did; the gateway's operation name is in the CSV. */
const ACTIONS = Object.entries(JOURNAL_ACTIONS);
const STATES = [
  ['pending', 'Pending: final status still owed'],
  ['sending', 'Sending'],
  ['acknowledged', 'Acknowledged, processing'],
  ['unknown', 'Unknown: answer lost, being checked'],
  ['final', 'Final'],
  ['refused', 'Refused by the gateway'],
] as const;
const STATUSES = ['approved', 'declined', 'filtered', 'error'] as const;

const localMidnight = (day: string) => new Date(`${day}T00:00:00`);

type FilterResult =
  { filter: JournalFilterInput; errors?: undefined } | { errors: Record<string, string> };

/**
 * The draft as the bridge's filter; an error message per field when it cannot be one. With the
 * contract, also checked by the bridge's own schema (a draft from the form); without, only what
 * the form itself decides (a preset).
 */
export function filterOf(draft: FilterDraft, contract?: Contract): FilterResult {
  const filter: JournalFilterInput = {};
  if (draft.orderRef.trim()) filter.orderRef = draft.orderRef.trim();
  if (draft.email.trim()) filter.email = draft.email.trim();
  if (draft.cardLastFour.trim()) filter.cardLastFour = draft.cardLastFour.trim();
  if (draft.amount.trim()) filter.amount = draft.amount.trim();
  if (draft.amountMin.trim()) filter.amountMin = draft.amountMin.trim();
  if (draft.amountMax.trim()) filter.amountMax = draft.amountMax.trim();
  if (draft.currency.trim()) filter.currency = draft.currency.trim().toUpperCase();
  if (draft.operation) filter.action = draft.operation;
  if (draft.state === 'pending') filter.pending = true;
  else if (draft.state) filter.state = draft.state as JournalFilterInput['state'];
  if (draft.status) filter.status = draft.status;
  if (draft.profileId) filter.profileId = draft.profileId;
  if (draft.fromDay) filter.from = localMidnight(draft.fromDay).toISOString();
  if (draft.toDay) {
    const next = localMidnight(draft.toDay);
    next.setDate(next.getDate() + 1); // "to" is inclusive for people, exclusive for the store
    filter.to = next.toISOString();
  }
  if (draft.fromDay && draft.toDay && draft.fromDay > draft.toDay) {
    return { errors: { toDay: 'The end date is before the start date.' } };
  }
  const parsed = contract?.journalFilterSchema.safeParse(filter);
  if (parsed && !parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    return { errors };
  }
  return { filter };
}

export function draftOfPreset(preset: string | undefined): FilterDraft {
  if (preset === 'pending') return { ...EMPTY_DRAFT, state: 'pending' };
  // #/journal/entry:<action id>: one entry (an order page's link), found by its id and opened.
  const entry = entryOfPreset(preset);
  if (entry) return { ...EMPTY_DRAFT, orderRef: entry };
  return EMPTY_DRAFT;
}

/** The action id of an `entry:<id>` preset (the order page links to an entry this way). */
export function entryOfPreset(preset: string | undefined): string | undefined {
  return preset?.startsWith('entry:') ? preset.slice('entry:'.length) || undefined : undefined;
}

export function JournalFilters({
  initial,
  profiles,
  onApply,
}: {
  initial: FilterDraft;
  profiles: readonly ProfileView[];
  onApply: (filter: JournalFilterInput) => void;
}) {
  const uid = useId();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = (name: string) => `${uid}-${name}`;
  const set = (key: keyof FilterDraft, value: string) => setDraft((d) => ({ ...d, [key]: value }));

  useSchemasSoon();

  function apply(next: FilterDraft) {
    withSchemas((contract) => {
      const result = filterOf(next, contract);
      if (result.errors) {
        setErrors(result.errors);
        return;
      }
      setErrors({});
      onApply(result.filter);
    });
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };

  const errorFor = (name: string) => errors[name];
  const aria = (name: string) => ({
    id: id(name),
    'aria-invalid': errorFor(name) ? (true as const) : undefined,
    'aria-describedby': errorFor(name) ? `${id(name)}-error` : undefined,
  });
  /** A date field is described by its error, if any, and by the hint on whose days they are. */
  const describedBy = (name: string) =>
    [errorFor(name) ? `${id(name)}-error` : '', id('days-hint')].filter(Boolean).join(' ');
  const error = (name: string) =>
    errorFor(name) ? (
      <span className="field-error" id={`${id(name)}-error`}>
        {errorFor(name)}
      </span>
    ) : null;

  /**
   * A typed filter: plain text (never type=email or type=number, which a browser would check
   * or round before the search sees it), with an example as its placeholder.
   */
  const typed = (
    name: 'orderRef' | 'email' | 'cardLastFour' | 'amount' | 'amountMin' | 'amountMax' | 'currency',
    label: string,
    options: { placeholder?: string; inputMode?: 'numeric' | 'decimal'; maxLength?: number } = {},
  ) => (
    <div className="field">
      <label htmlFor={id(name)}>{label}</label>
      <input
        {...aria(name)}
        aria-describedby={[errorFor(name) ? `${id(name)}-error` : '', id('match-hint')]
          .filter(Boolean)
          .join(' ')}
        type="text"
        value={draft[name]}
        spellCheck={false}
        autoComplete="off"
        {...(options.placeholder ? { placeholder: options.placeholder } : {})}
        {...(options.inputMode ? { inputMode: options.inputMode } : {})}
        {...(options.maxLength ? { maxLength: options.maxLength } : {})}
        onChange={(e) => set(name, e.target.value)}
      />
      {error(name)}
    </div>
  );

  /** A filter chosen from a list; the empty value means "any". */
  const choice = (
    name: 'operation' | 'state' | 'status' | 'profileId',
    label: string,
    anyLabel: string,
    options: readonly (readonly [string, string])[],
  ) => (
    <div className="field">
      <label htmlFor={id(name)}>{label}</label>
      <select {...aria(name)} value={draft[name]} onChange={(e) => set(name, e.target.value)}>
        <option value="">{anyLabel}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <form
      className="card journal-filters"
      role="search"
      aria-label="Search the journal"
      onSubmit={submit}
    >
      <div className="filter-grid">
        {typed('orderRef', 'Shop order id, orderid or action id', {
          placeholder: '1003, demo-sale-10',
        })}
        {typed('email', 'Customer email', { placeholder: 'maria' })}
        {typed('cardLastFour', 'Card’s last four', {
          inputMode: 'numeric',
          maxLength: 4,
          placeholder: '1111',
        })}
        {typed('amount', 'Amount', { inputMode: 'decimal', placeholder: '14.25' })}
        {typed('amountMin', 'Amount from', { inputMode: 'decimal' })}
        {typed('amountMax', 'Amount to', { inputMode: 'decimal' })}
        {typed('currency', 'Currency', { maxLength: 3, placeholder: 'EUR' })}
        {choice('operation', 'Operation', 'Any operation', ACTIONS)}
        {choice('state', 'State', 'Any state', STATES)}
        {choice(
          'status',
          'Gateway status',
          'Any status',
          STATUSES.map((v) => [v, v] as const),
        )}
        {choice(
          'profileId',
          'Profile',
          'All profiles',
          profiles.map((p) => [p.id, p.name] as const),
        )}
        <div className="field">
          <label htmlFor={id('fromDay')}>From (date)</label>
          <input
            {...aria('fromDay')}
            aria-describedby={describedBy('fromDay')}
            type="date"
            value={draft.fromDay}
            onChange={(e) => set('fromDay', e.target.value)}
          />
          {error('fromDay')}
          {error('from')}
        </div>
        <div className="field">
          <label htmlFor={id('toDay')}>To (date, inclusive)</label>
          <input
            {...aria('toDay')}
            aria-describedby={describedBy('toDay')}
            type="date"
            value={draft.toDay}
            onChange={(e) => set('toDay', e.target.value)}
          />
          {error('toDay')}
          {error('to')}
        </div>
      </div>
      <p className="field-hint" id={id('match-hint')}>
        An id matches from its start (1003 finds 100345), an e-mail by any part of it (maria). An
        amount is read in each currency&rsquo;s decimals: 14.25 finds 14.25 EUR and 14.250 KWD, and
        no JPY amount.
      </p>
      <p className="field-hint" id={id('days-hint')}>
        Days run from midnight to midnight in this desk&rsquo;s time zone (UTC{offsetOf(new Date())}
        ); the CSV gives every time with its offset.
      </p>
      <div className="button-row">
        <button type="submit" className="primary">
          Search
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(EMPTY_DRAFT);
            apply(EMPTY_DRAFT);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
