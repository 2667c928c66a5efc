// A tiny hash router: the app has a handful of screens and no server, so #/screen is enough.

import { useEffect, useState } from 'react';

export type ScreenName =
  | 'lookup'
  | 'batch'
  | 'payouts'
  | 'payouts-to-pay'
  | 'card-info'
  | 'rebill'
  | 'recurring'
  | 'pay-link'
  | 'callback-check'
  | 'journal'
  // Reports: the daily close (and, beside it, the reconciliation).
  | 'reports'
  | 'profiles'
  | 'keys'
  | 'team-journal'
  | 'backups'
  | 'network'
  | 'updates'
  // Reconciliation (its own block: other screens are added beside it).
  | 'reconcile';

/** The navigation's groups, by what people do. */
export const GROUPS = [
  'Orders',
  'Payouts',
  'Cards and subscriptions',
  'Pay-by-link',
  'Tools',
  'Journal',
  'Admin',
  'Settings',
] as const;
export type Group = (typeof GROUPS)[number];

export const SCREENS: readonly { name: ScreenName; label: string; who: string; group: Group }[] = [
  { name: 'lookup', label: 'Orders', who: 'Look up, capture, void and refund', group: 'Orders' },
  {
    name: 'batch',
    label: 'Batch',
    who: 'Many captures or refunds from a CSV',
    group: 'Orders',
  },
  { name: 'payouts', label: 'Payouts', who: 'Send money, one or two steps', group: 'Payouts' },
  {
    name: 'payouts-to-pay',
    label: 'Payouts to pay',
    who: 'Checked, waiting to be paid',
    group: 'Payouts',
  },
  {
    name: 'card-info',
    label: 'Card references',
    who: 'Save a card, read a reference',
    group: 'Cards and subscriptions',
  },
  {
    name: 'rebill',
    label: 'Rebill',
    who: 'Charge a saved card',
    group: 'Cards and subscriptions',
  },
  {
    name: 'recurring',
    label: 'Subscriptions',
    who: 'Set up recurring charges',
    group: 'Cards and subscriptions',
  },
  {
    name: 'pay-link',
    label: 'Payment links',
    who: 'Phone and e-mail orders',
    group: 'Pay-by-link',
  },
  {
    name: 'callback-check',
    label: 'Callback check',
    who: 'Did the gateway send this?',
    group: 'Tools',
  },
  { name: 'journal', label: 'Journal', who: 'Everything Paydesk sent', group: 'Journal' },
  // Reports: the daily close.
  { name: 'reports', label: 'Reports', who: 'Daily close: totals and charts', group: 'Journal' },
  {
    name: 'reconcile',
    label: 'Reconciliation',
    who: 'The journal checked against the gateway',
    group: 'Journal',
  },
  { name: 'profiles', label: 'Profiles', who: 'Gateway connections', group: 'Admin' },
  { name: 'keys', label: 'Keys', who: 'RSA keys for signing', group: 'Admin' },
  {
    name: 'team-journal',
    label: 'Team journal',
    who: 'One journal for the team (PostgreSQL)',
    group: 'Settings',
  },
  {
    name: 'backups',
    label: 'Backups',
    who: 'Back up, restore, support bundle',
    group: 'Settings',
  },
  { name: 'network', label: 'Network', who: "A company proxy's certificate", group: 'Settings' },
  { name: 'updates', label: 'Updates', who: 'New versions of Paydesk', group: 'Settings' },
];

export interface Route {
  screen: ScreenName;
  /** What follows the screen in the hash, e.g. an orderid: #/lookup/1000009 */
  param?: string;
  /** The order page's profile (#/order/<profileId>/<orderid>): Orders opens it on that profile. */
  profileId?: string;
}

// An order's page, on a given profile: #/order/<profileId>/<orderid> is Orders showing that
// order, with that profile made the active one. Other screens link to it with orderHref.
const ORDER_PAGE = 'order';

/** The link to an order's page: its profile and the gateway's orderid. */
export function orderHref(profileId: string, orderId: string): string {
  return hrefOf({ screen: 'lookup', param: orderId, profileId });
}

function parseOrderPage(parts: string[]): Route | undefined {
  const [, screen, profileId, orderId] = parts;
  if (screen !== ORDER_PAGE || !profileId || !orderId) return undefined;
  return {
    screen: 'lookup',
    param: decodeURIComponent(orderId),
    profileId: decodeURIComponent(profileId),
  };
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#/, '').split('/');
  const orderPage = parseOrderPage(parts);
  if (orderPage) return orderPage;
  const [, screen = 'lookup', param] = parts;
  const known = SCREENS.some((s) => s.name === screen);
  return {
    screen: known ? (screen as ScreenName) : 'lookup',
    ...(param ? { param: decodeURIComponent(param) } : {}),
  };
}

export function hrefOf(route: Route): string {
  if (route.screen === 'lookup' && route.profileId && route.param)
    return `#/${ORDER_PAGE}/${encodeURIComponent(route.profileId)}/${encodeURIComponent(route.param)}`;
  return `#/${route.screen}${route.param ? `/${encodeURIComponent(route.param)}` : ''}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function navigate(route: Route): void {
  window.location.hash = hrefOf(route);
}
