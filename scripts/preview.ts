// npm run preview: the whole app in a visible Chromium window, for anyone without the Electron
// binary. The same harness as the end-to-end tests: the built renderer, the preload's factory,
// the real bridge and services, the embedded sandbox, and an in-memory keychain (so nothing is
// written to the OS keychain; the data folder is a temporary one unless --data-dir is given).

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

import { closeSharedBrowser, startHarness } from '../test/harness/harness';

const arg = process.argv.indexOf('--data-dir');
const dataDir = arg > 0 ? process.argv[arg + 1] : undefined;
if (arg > 0 && !dataDir) {
  console.error(
    '--data-dir needs a folder, for example: npm run preview -- --data-dir ./preview-data',
  );
  process.exit(2);
}
if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && process.platform === 'linux') {
  console.error(
    [
      'npm run preview opens a Chromium window, and this session has no display (neither DISPLAY nor WAYLAND_DISPLAY is set). Instead:',
      '  - from another computer with a desktop: ssh -X this-host, then npm run preview (the window opens there);',
      '  - to see every screen without any display: npm run screenshots (PNG files in docs/screenshots/);',
      '  - on a virtual display nobody sees (for tools that drive it): sudo apt-get install xvfb, then xvfb-run -a npm run preview.',
    ].join('\n'),
  );
  process.exit(1);
}
if (dataDir) mkdirSync(resolve(dataDir), { recursive: true });

const h = await startHarness({
  headless: false,
  ...(dataDir ? { dataDir: resolve(dataDir) } : {}),
  services: { sandboxDelayMs: 2_000, wait: {} },
});
await h.open('#/lookup');
console.log('Paydesk preview is open in Chromium. Close the window or press Ctrl+C to stop.');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await h.close();
  await closeSharedBrowser();
  process.exit(0);
};
h.page.on('close', () => void stop());
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
