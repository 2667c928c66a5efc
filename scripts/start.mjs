// `npm start` (after `npm run build`): opens the built app in Electron, first fetching the
// Electron binary with Electron's own installer when it is missing, and saying what to do and
// what works without Electron when it cannot be had. The logic is in ./electron-binary.mjs.
//
// Limits for the download, for slow links: PAYDESK_ELECTRON_STALL_SECONDS (default 60: no new
// byte for that long stops it) and PAYDESK_ELECTRON_DOWNLOAD_MINUTES (default 30 in all).

import path from 'node:path';

import { startApp } from './electron-binary.mjs';

const root = path.resolve(import.meta.dirname, '..');
process.exitCode = await startApp({ root, args: process.argv.slice(2) });
