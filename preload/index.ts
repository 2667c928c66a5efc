// Builds window.paydesk, the renderer's only door to the main process. Today it carries only the
// build's version; the typed calls of preload/contract.ts join it when the bridge exists. No
// ipcRenderer, no event object, nothing of Node crosses into the page.

import { contextBridge } from 'electron';

// Replaced at build time from package.json (vite.preload.config.ts): a sandboxed preload cannot
// read files, and app.getVersion() lives in main.
declare const __PAYDESK_VERSION__: string;

const paydesk = Object.freeze({ version: __PAYDESK_VERSION__ });

export type PaydeskApi = typeof paydesk;

contextBridge.exposeInMainWorld('paydesk', paydesk);
