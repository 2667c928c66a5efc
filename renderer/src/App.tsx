// The app frame: who we are connected as (a production profile looks different at a glance),
// how many operations still wait for the gateway's final word, the navigation, and the screen.
// In a narrow window (a 200% zoom of a laptop's) the navigation gives the screen its width: it
// folds behind a "Screens" button in the header and opens over the screen (styles.css).

import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';

import { paydesk, unwrap } from './api';
import { EnvironmentBadge } from './components/EnvironmentBadge';
import { ErrorNotice, Notice } from './components/Notice';
import { RoleFence } from './components/RoleFence';
import { SignedInAs, TeamNotice } from './components/TeamNotice';
import { LifecycleGate } from './lifecycle';
import { ActiveProfileProvider, useActiveProfile } from './profile-context';
import { keys, useAppStatus, useJournalEvents } from './queries';
import { GROUPS, hrefOf, SCREENS, useRoute } from './route';

// Each screen is its own chunk, loaded when it is first shown: the first start loads the
// frame and one screen, not all of them (and the journal's virtual list only with the journal).
const LookupScreen = lazy(() =>
  import('./screens/orders/LookupScreen').then((m) => ({ default: m.LookupScreen })),
);
const BatchScreen = lazy(() =>
  import('./screens/batch/BatchScreen').then((m) => ({ default: m.BatchScreen })),
);
const JournalScreen = lazy(() =>
  import('./screens/journal/JournalScreen').then((m) => ({ default: m.JournalScreen })),
);
const ReconcileScreen = lazy(() =>
  import('./screens/reconcile/ReconcileScreen').then((m) => ({ default: m.ReconcileScreen })),
);
const CallbackCheckScreen = lazy(() =>
  import('./screens/callback-check/CallbackCheckScreen').then((m) => ({
    default: m.CallbackCheckScreen,
  })),
);
const ProfilesScreen = lazy(() =>
  import('./screens/profiles/ProfilesScreen').then((m) => ({ default: m.ProfilesScreen })),
);
const KeysScreen = lazy(() =>
  import('./screens/keys/KeysScreen').then((m) => ({ default: m.KeysScreen })),
);
const PayoutsScreen = lazy(() =>
  import('./screens/payouts/PayoutsScreen').then((m) => ({ default: m.PayoutsScreen })),
);
const PayoutsToPayScreen = lazy(() =>
  import('./screens/payouts-to-pay/PayoutsToPayScreen').then((m) => ({
    default: m.PayoutsToPayScreen,
  })),
);
const CardInfoScreen = lazy(() =>
  import('./screens/card-info/CardInfoScreen').then((m) => ({ default: m.CardInfoScreen })),
);
const RebillScreen = lazy(() =>
  import('./screens/rebill/RebillScreen').then((m) => ({ default: m.RebillScreen })),
);
const RecurringScreen = lazy(() =>
  import('./screens/recurring/RecurringScreen').then((m) => ({ default: m.RecurringScreen })),
);
const TeamJournalScreen = lazy(() =>
  import('./screens/settings/TeamJournalScreen').then((m) => ({ default: m.TeamJournalScreen })),
);
const BackupsScreen = lazy(() =>
  import('./screens/settings/BackupsScreen').then((m) => ({ default: m.BackupsScreen })),
);
const NetworkScreen = lazy(() =>
  import('./screens/settings/NetworkScreen').then((m) => ({ default: m.NetworkScreen })),
);
const UpdatesScreen = lazy(() =>
  import('./screens/settings/UpdatesScreen').then((m) => ({ default: m.UpdatesScreen })),
);
// Reports: its charts are a chunk of their own inside it (chart.js), loaded with the figures.
const ReportsScreen = lazy(() =>
  import('./screens/reports/ReportsScreen').then((m) => ({ default: m.ReportsScreen })),
);
const PayLinkScreen = lazy(() =>
  import('./screens/pay-link/PayLinkScreen').then((m) => ({ default: m.PayLinkScreen })),
);
// What a start that found the database read-only, missing or restored says: rare, so loaded then.
const StoreNotice = lazy(() =>
  import('./components/StoreNotice').then((m) => ({ default: m.StoreNotice })),
);
const RestoredNotice = lazy(() =>
  import('./components/StoreNotice').then((m) => ({ default: m.RestoredNotice })),
);

export function App() {
  return (
    <LifecycleGate>
      <ActiveProfileProvider>
        <Frame />
      </ActiveProfileProvider>
    </LifecycleGate>
  );
}

// The header's count of operations waiting for the gateway's final status, a link to them in
// the Journal. A count Paydesk has not read yet, or could not read, is never shown as 0: until
// the journal answers it says "… pending", and "? pending" when the journal could not be read
// (an earlier count is not shown then: it may have changed since), each with a label that says
// so. A failed read is not retried apart: the count is read again every 5 s anyway. (Here, not
// in a module of its own: as one, the bundler splits the entry's shared code into a second
// file that every screen loads.)
const WAITING = "operations waiting for the gateway's final status";

export function PendingCounter() {
  const { data, isError } = useQuery({
    queryKey: [...keys.journal, 'pending-count'],
    queryFn: () =>
      unwrap(paydesk().journal.search({ filter: { pending: true }, offset: 0, limit: 1 })),
    refetchInterval: 5_000,
    retry: false,
  });
  const count = isError ? undefined : data?.total;
  const label =
    count !== undefined
      ? `${count} ${count === 1 ? "operation waiting for the gateway's final status" : WAITING}`
      : isError
        ? `The journal could not be read: the number of ${WAITING} is not known`
        : `Counting the ${WAITING}`;
  return (
    <a
      className={`pending-counter${count !== undefined && count > 0 ? ' has-pending' : ''}`}
      href={hrefOf({ screen: 'journal', param: 'pending' })}
      aria-label={label}
      title={count === undefined ? label : undefined}
    >
      {count ?? (isError ? '?' : '…')} pending
    </a>
  );
}

function ProfileSwitcher() {
  const { profiles, active, setActiveId } = useActiveProfile();
  if (!active) return null;
  return (
    <div className="profile-switcher">
      <label htmlFor="active-profile">Profile</label>
      <select id="active-profile" value={active.id} onChange={(e) => setActiveId(e.target.value)}>
        {profiles.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <EnvironmentBadge environment={active.environment} />
    </div>
  );
}

function Frame() {
  useJournalEvents();
  const route = useRoute();
  const status = useAppStatus();
  const { active, error } = useActiveProfile();
  const environment = active?.environment ?? 'sandbox';
  // Narrow windows only: the folded navigation, open on the screen it was opened on (choosing
  // another screen, or any link in it, closes it).
  const here = hrefOf(route);
  const [openOn, setOpenOn] = useState<string | null>(null);
  const navOpen = openOn === here;

  return (
    <div className={`app env-frame-${environment}`}>
      <header className="app-header">
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={navOpen}
          aria-controls="app-nav"
          onClick={() => setOpenOn(navOpen ? null : here)}
        >
          Screens
        </button>
        <span className="wordmark">Paydesk</span>
        <ProfileSwitcher />
        <span className="header-spacer" />
        <PendingCounter />
        <SignedInAs operator={status.data?.operator} />
      </header>
      {environment === 'production' && (
        <div className="production-strip" role="note">
          Production profile: every action moves real money.
        </div>
      )}
      <div className="app-body">
        <nav
          id="app-nav"
          className={`app-nav${navOpen ? ' open' : ''}`}
          aria-label="Screens"
          // A link chosen closes the folded navigation, the screen it is on too.
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setOpenOn(null);
          }}
        >
          {GROUPS.map((group) => {
            const screens = SCREENS.filter((s) => s.group === group);
            if (screens.length === 0) return null;
            const headingId = `nav-${group.replace(/\W+/g, '-').toLowerCase()}`;
            return (
              <div key={group} className="nav-group">
                <h2 id={headingId} className="nav-group-title">
                  {group}
                </h2>
                <ul aria-labelledby={headingId}>
                  {screens.map((s) => (
                    <li key={s.name}>
                      <a
                        href={hrefOf({ screen: s.name })}
                        aria-current={route.screen === s.name ? 'page' : undefined}
                      >
                        <span className="nav-label">{s.label}</span>
                        <span className="nav-who">{s.who}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
        <main className="app-main">
          {status.data && !status.data.store.writable && (
            <Suspense fallback={null}>
              <StoreNotice store={status.data.store} />
            </Suspense>
          )}
          {status.data?.store.restored && (
            <Suspense fallback={null}>
              <RestoredNotice store={status.data.store} />
            </Suspense>
          )}
          <TeamNotice />
          {status.data && !status.data.keychain.usable && (
            <Notice kind="warning">
              <strong>The keychain cannot be used.</strong> {status.data.keychain.message}
            </Notice>
          )}
          {status.data?.sandbox.running && status.data.sandbox.message && (
            <Notice kind="info">{status.data.sandbox.message}</Notice>
          )}
          {status.error && <ErrorNotice error={status.error} title="Paydesk could not start:" />}
          {error !== null && error !== undefined && (
            <ErrorNotice error={error} title="Profiles could not be read:" />
          )}
          <Suspense fallback={<p className="screen-loading">Loading…</p>}>
            {route.screen === 'lookup' && (
              <LookupScreen
                {...(route.param ? { orderRef: route.param } : {})}
                {...(route.profileId ? { profileId: route.profileId } : {})}
              />
            )}
            {route.screen === 'batch' && (
              <RoleFence need="money">
                <BatchScreen />
              </RoleFence>
            )}
            {route.screen === 'payouts' && (
              <RoleFence need="money">
                <PayoutsScreen />
              </RoleFence>
            )}
            {route.screen === 'payouts-to-pay' && (
              <RoleFence need="money">
                <PayoutsToPayScreen />
              </RoleFence>
            )}
            {route.screen === 'card-info' && (
              <CardInfoScreen {...(route.param ? { cardRef: route.param } : {})} />
            )}
            {route.screen === 'rebill' && (
              <RoleFence need="money">
                <RebillScreen {...(route.param ? { cardRef: route.param } : {})} />
              </RoleFence>
            )}
            {route.screen === 'recurring' && (
              <RoleFence need="money">
                <RecurringScreen {...(route.param ? { cardRef: route.param } : {})} />
              </RoleFence>
            )}
            {route.screen === 'pay-link' && (
              <RoleFence need="money">
                <PayLinkScreen />
              </RoleFence>
            )}
            {route.screen === 'journal' && (
              <JournalScreen {...(route.param ? { preset: route.param } : {})} />
            )}
            {route.screen === 'reconcile' && <ReconcileScreen />}
            {route.screen === 'callback-check' && <CallbackCheckScreen />}
            {/* Reports: the daily close. */}
            {route.screen === 'reports' && <ReportsScreen />}
            {route.screen === 'profiles' && (
              <RoleFence need="admin">
                <ProfilesScreen />
              </RoleFence>
            )}
            {route.screen === 'keys' && (
              <RoleFence need="admin">
                <KeysScreen />
              </RoleFence>
            )}
            {route.screen === 'team-journal' && <TeamJournalScreen />}
            {route.screen === 'backups' && <BackupsScreen />}
            {route.screen === 'network' && (
              <RoleFence need="admin">
                <NetworkScreen />
              </RoleFence>
            )}
            {route.screen === 'updates' && <UpdatesScreen />}
          </Suspense>
        </main>
      </div>
    </div>
  );
}
