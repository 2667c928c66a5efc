// Exposes window.paydesk, the renderer's only door to the main process, built from
// common/contract.ts. Nothing else: no ipcRenderer, no event object, nothing of Node.

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

import { createPaydeskApi } from './api';

// Replaced at build time from package.json (vite.preload.config.ts): a sandboxed preload cannot
// read files, and app.getVersion() lives in main.
declare const __PAYDESK_VERSION__: string;

const paydesk = createPaydeskApi(
  {
    invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
    subscribe: (channel, listener) => {
      const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, handler);
      return () => ipcRenderer.removeListener(channel, handler);
    },
  },
  __PAYDESK_VERSION__,
);

export type { PaydeskApi } from './api';

contextBridge.exposeInMainWorld('paydesk', paydesk);
