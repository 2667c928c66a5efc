// A tiny hash router: the app has a handful of screens and no server, so #/screen is enough.

import { useEffect, useState } from 'react';

export type ScreenName = 'lookup' | 'journal' | 'callback-check' | 'profiles' | 'keys';
export const SCREENS: readonly { name: ScreenName; label: string; who: string }[] = [
  { name: 'lookup', label: 'Orders', who: 'Look up, capture, void and refund' },
  { name: 'journal', label: 'Journal', who: 'Everything Paydesk sent' },
  { name: 'callback-check', label: 'Callback check', who: 'Did the gateway send this?' },
  { name: 'profiles', label: 'Profiles', who: 'Gateway connections' },
  { name: 'keys', label: 'Keys', who: 'RSA keys for signing' },
];

export interface Route {
  screen: ScreenName;
  /** What follows the screen in the hash, e.g. an orderid: #/lookup/1000009 */
  param?: string;
}

export function parseRoute(hash: string): Route {
  const [, screen = 'lookup', param] = hash.replace(/^#/, '').split('/');
  const known = SCREENS.some((s) => s.name === screen);
  return {
    screen: known ? (screen as ScreenName) : 'lookup',
    ...(param ? { param: decodeURIComponent(param) } : {}),
  };
}

export function hrefOf(route: Route): string {
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
