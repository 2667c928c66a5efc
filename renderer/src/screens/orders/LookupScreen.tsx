// Orders: look an order up by the gateway's orderid or the merchant's client_orderid, read it in
// plain words, and capture, void, refund or cancel it where the gateway allows it now. The
// order's reference lives in the route (#/lookup/<ref>), so links from the journal and from a
// preauth's captures land here, and Back goes to the previous order. An order's page on a given
// profile (#/order/<profileId>/<orderid>, route.ts orderHref) makes that profile the active one
// first, so the header always names the profile every action goes to.

import { useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type RefObject,
} from 'react';

import type { OrderViewData } from '../../../../common/contract';
import { ORDERID_MESSAGE } from '../../../../common/text-rules';
import { BridgeError } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton, RoleFence } from '../../components/RoleFence';
import { useActiveProfile, type ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { hrefOf, navigate } from '../../route';
import { useOrder } from './hooks';
import { OrderDetails } from './OrderDetails';
import { OrderTimeline } from './OrderTimeline';
import { RecentOrders } from './RecentOrders';
import { guessKind, parseRef, refParam, type OrderRef, type RefKind } from './ref';
import { ACTION_WORDS, actionsFor, type ActionKind } from './words';
import './orders.css';

// The action panel (the form, the confirmation, the outcome and the money flow behind them) is
// half of the screen's code and opens only when a button is pressed: it loads with the order's
// details shown, after the screen painted (prefetch below), or at the press at the latest.
const loadActionPanel = () => import('./ActionPanel');
const ActionPanel = lazy(() => loadActionPanel().then((m) => ({ default: m.ActionPanel })));

const DEMO_REFS = ['demo-sale-1001', 'demo-sale-1003', 'demo-auth-2002', 'demo-sale-1006'];

export function LookupScreen({ orderRef, profileId }: { orderRef?: string; profileId?: string }) {
  const { active, loading, profiles, setActiveId } = useActiveProfile();
  const queryClient = useQueryClient();
  const current = orderRef ? parseRef(orderRef) : undefined;
  const linkedProfile = profileId ? profiles.find((p) => p.id === profileId) : undefined;
  // The link's profile is made active once per link; a profile chosen in the header afterwards
  // is the person's choice and stays.
  const link = linkedProfile ? `${linkedProfile.id}|${orderRef ?? ''}` : '';
  const [switchedFor, setSwitchedFor] = useState('');
  const needsSwitch = Boolean(linkedProfile && active && switchedFor !== link);
  // Once the link's profile is active, this link is done (state set while rendering, as React
  // allows for state derived from props).
  if (needsSwitch && linkedProfile?.id === active?.id) setSwitchedFor(link);
  useEffect(() => {
    if (needsSwitch && linkedProfile && linkedProfile.id !== active?.id)
      setActiveId(linkedProfile.id);
  }, [needsSwitch, linkedProfile, active, setActiveId]);
  // Until the linked profile is the active one, nothing is looked up on another.
  const onLinkedProfile = !linkedProfile || switchedFor === link;
  // Each search moves focus to its result, also when it repeats the order on screen.
  const [searchRound, setSearchRound] = useState(0);

  const search = (ref: OrderRef) => {
    const param = refParam(ref);
    setSearchRound((n) => n + 1);
    if (param === orderRef && active) {
      void queryClient.invalidateQueries({ queryKey: keys.order(active.id, param) });
    } else {
      navigate({ screen: 'lookup', param });
    }
  };

  return (
    <div className="orders-screen">
      <h1>Orders</h1>
      <LookupForm key={orderRef ?? ''} initial={current} onSearch={search} />
      {!active && !loading && (
        <Notice kind="warning">
          There is no gateway profile yet. Create one on the{' '}
          <a href={hrefOf({ screen: 'profiles' })}>Profiles</a> screen to look orders up.
        </Notice>
      )}
      {profileId && !linkedProfile && !loading && (
        <Notice kind="warning">
          This link is for a profile this desk does not have ({profileId}); the order is looked up
          on {active?.name ?? 'the active profile'} instead.
        </Notice>
      )}
      {current && active && onLinkedProfile && (
        <OrderResult
          key={`${active.id}|${refParam(current)}`}
          profile={active}
          lookup={current}
          searchRound={searchRound}
        />
      )}
      {!current && active?.embedded && (
        <p className="field-hint orders-demo">
          The Sandbox profile has demo orders to try:{' '}
          {DEMO_REFS.map((ref, index) => (
            <span key={ref}>
              {index > 0 && ', '}
              <a href={hrefOf({ screen: 'lookup', param: ref })}>{ref}</a>
            </span>
          ))}
          .
        </p>
      )}
      {!current && active && <RecentOrders profile={active} />}
    </div>
  );
}

function LookupForm({
  initial,
  onSearch,
}: {
  initial: OrderRef | undefined;
  onSearch: (ref: OrderRef) => void;
}) {
  const ids = useId();
  const [value, setValue] = useState(initial?.value ?? '');
  const [kind, setKind] = useState<RefKind>(initial?.kind ?? 'client_orderid');
  // Until the person picks the kind, it follows what they type (digits: the gateway's orderid).
  const [kindChosen, setKindChosen] = useState(initial !== undefined);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (trimmed === '') {
      setError('Enter an orderid or a client_orderid.');
      input.current?.focus();
      return;
    }
    if (kind === 'orderid' && !/^\d+$/.test(trimmed)) {
      setError(ORDERID_MESSAGE);
      input.current?.focus();
      return;
    }
    if (trimmed.length > (kind === 'orderid' ? 64 : 128)) {
      setError('That is longer than any order reference; check what was pasted.');
      input.current?.focus();
      return;
    }
    setError(undefined);
    onSearch({ kind, value: trimmed });
  };

  return (
    <form
      className="card lookup-form"
      role="search"
      aria-label="Look up an order"
      onSubmit={submit}
      noValidate
    >
      <div className="field lookup-kind">
        <label htmlFor={`${ids}-kind`}>Look up by</label>
        <select
          id={`${ids}-kind`}
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as RefKind);
            setKindChosen(true);
          }}
        >
          <option value="client_orderid">Client order id (client_orderid)</option>
          <option value="orderid">Gateway order id (orderid)</option>
        </select>
      </div>
      <div className="field lookup-ref">
        <label htmlFor={`${ids}-ref`}>Order reference</label>
        <input
          id={`${ids}-ref`}
          ref={input}
          type="search"
          value={value}
          autoComplete="off"
          spellCheck={false}
          placeholder={kind === 'orderid' ? 'e.g. 1000001' : 'e.g. demo-sale-1001'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids}-error` : `${ids}-hint`}
          onChange={(e) => {
            setValue(e.target.value);
            if (!kindChosen && e.target.value.trim()) setKind(guessKind(e.target.value));
            if (error) setError(undefined);
          }}
        />
        {error ? (
          <span id={`${ids}-error`} className="field-error" role="alert">
            {error}
          </span>
        ) : (
          <span id={`${ids}-hint`} className="field-hint">
            The gateway’s orderid is digits only; the client_orderid is the shop’s own.
          </span>
        )}
      </div>
      <div className="lookup-submit">
        <button type="submit" className="primary">
          Look up
        </button>
      </div>
    </form>
  );
}

function OrderResult({
  profile,
  lookup,
  searchRound,
}: {
  profile: ProfileView;
  lookup: OrderRef;
  searchRound: number;
}) {
  const query = useOrder(profile.id, lookup);
  const order = query.data;
  const heading = useRef<HTMLHeadingElement>(null);
  const focusedRound = useRef(-1);
  const [openKind, setOpenKind] = useState<ActionKind>();
  const [busy, setBusy] = useState(false);
  const buttons = useRef<Partial<Record<ActionKind, HTMLButtonElement | null>>>({});

  useEffect(() => {
    if (order && focusedRound.current !== searchRound) {
      focusedRound.current = searchRound;
      heading.current?.focus();
    }
  }, [order, searchRound]);
  useEffect(() => {
    if (order) void loadActionPanel().catch(() => undefined); // the press finds it here
  }, [order]);

  const close = useCallback(() => {
    const kind = openKind;
    setOpenKind(undefined);
    setBusy(false);
    requestAnimationFrame(() => {
      const button = kind ? buttons.current[kind] : undefined;
      if (button && !button.disabled) button.focus();
      else heading.current?.focus();
    });
  }, [openKind]);

  if (!order) {
    if (query.error instanceof BridgeError && query.error.code === 'NOT_FOUND') {
      // "Not found" is an answer, not a failure: neutral words, no red.
      return (
        <div className="lookup-failed">
          <Notice kind="info">
            <strong>No order found.</strong> {query.error.message}
          </Notice>
          <button type="button" onClick={() => void query.refetch()}>
            Look up again
          </button>
        </div>
      );
    }
    if (query.error) {
      return (
        <div className="lookup-failed">
          <ErrorNotice
            error={query.error}
            title={`Order ${lookup.value} could not be looked up.`}
          />
          <button type="button" onClick={() => void query.refetch()}>
            Look up again
          </button>
        </div>
      );
    }
    return (
      <p className="lookup-loading" role="status">
        Looking up {lookup.kind === 'orderid' ? 'orderid' : 'client_orderid'} {lookup.value} on{' '}
        {profile.name}…
      </p>
    );
  }

  return (
    <>
      <section className="card order-card" aria-labelledby="order-heading">
        {query.error && (
          <Notice kind="warning">
            The order could not be refreshed; what is shown may be out of date.{' '}
            {query.error.message}
          </Notice>
        )}
        <OrderDetails order={order} headingRef={heading} />
        <OrderActions
          order={order}
          openKind={openKind}
          busy={busy}
          buttons={buttons}
          onOpen={(kind) => setOpenKind(kind)}
        />
      </section>
      {openKind && (
        <Suspense fallback={<p className="screen-loading">Loading…</p>}>
          <ActionPanel
            key={`${order.orderId}-${openKind}`}
            kind={openKind}
            order={order}
            profile={profile}
            onClose={close}
            onBusyChange={setBusy}
          />
        </Suspense>
      )}
      <OrderTimeline order={order} />
    </>
  );
}

function OrderActions({
  order,
  openKind,
  busy,
  buttons,
  onOpen,
}: {
  order: OrderViewData;
  openKind: ActionKind | undefined;
  busy: boolean;
  buttons: RefObject<Partial<Record<ActionKind, HTMLButtonElement | null>>>;
  onOpen: (kind: ActionKind) => void;
}) {
  const ids = useId();
  const currency = order.currency ?? '';
  return (
    <div className="order-actions" role="group" aria-labelledby={`${ids}-heading`}>
      <h3 id={`${ids}-heading`}>Actions</h3>
      {/* The person's role (or a read-only database) may allow no money at all: one line says why. */}
      <RoleFence need="money">
        <ul>
          {actionsFor(order.transactionType).map((kind) => {
            const action = order.actions[kind];
            const words = ACTION_WORDS[kind];
            const why = `${ids}-${kind}-why`;
            return (
              <li
                key={kind}
                className={action.allowed ? 'order-action' : 'order-action not-allowed'}
              >
                <FencedButton
                  ref={(element) => {
                    buttons.current[kind] = element;
                  }}
                  className={kind === 'capture' || kind === 'refund' ? 'primary' : undefined}
                  disabled={!action.allowed || (busy && openKind !== kind)}
                  aria-describedby={why}
                  aria-expanded={openKind === kind}
                  {...(openKind === kind ? { 'aria-controls': 'action-panel' } : {})}
                  onClick={() => onOpen(kind)}
                >
                  {words.open}…
                </FencedButton>
                <span id={why} className={action.allowed ? 'field-hint' : 'action-why'}>
                  {action.allowed
                    ? `${words.hint}${action.max ? ` Up to ${action.max} ${currency}.` : ''}`
                    : action.reason}
                </span>
              </li>
            );
          })}
        </ul>
      </RoleFence>
    </div>
  );
}
