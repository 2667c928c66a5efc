// Runs inside the test page before the app: builds window.paydesk with the preload's own
// factory, routing each call through the binding the harness exposes into the real
// main/bridge.ts, and each event from the harness to the page's listeners.

import { createPaydeskApi } from '../../preload/api';

declare global {
  interface Window {
    __paydeskInvoke(channel: string, payload: unknown): Promise<unknown>;
    __paydeskEmit(channel: string, payload: unknown): void;
  }
}

const listeners = new Map<string, Set<(payload: unknown) => void>>();

window.__paydeskEmit = (channel, payload) => {
  for (const listener of listeners.get(channel) ?? []) listener(payload);
};

const api = createPaydeskApi(
  {
    invoke: (channel, payload) => window.__paydeskInvoke(channel, payload),
    subscribe: (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return () => set.delete(listener);
    },
  },
  'harness',
);

Object.defineProperty(window, 'paydesk', { value: api, writable: false, configurable: false });
