// Screenshots of the start's and the shutdown's page for docs/screenshots (npm run screenshots):
// the window opens before the services and shows what they do. The harness's services are
// already running, so the states main would push (the 'lifecycle' event) are pushed here.

import { join } from 'node:path';

import { eventChannelOf, type LifecycleData } from '../../../common/contract';
import { KEYCHAIN_WAITING_MESSAGE } from '../../../main/services/keychain-check';
import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

const STATES: [string, LifecycleData][] = [
  [
    'start-keychain-waiting.png',
    {
      phase: 'keychain-waiting',
      step: 'Waiting for the keychain',
      message: KEYCHAIN_WAITING_MESSAGE,
    },
  ],
  [
    'quit-finishing.png',
    {
      phase: 'stopping',
      step: "Pausing the batch: the rows being sent get the gateway's answer",
    },
  ],
];

export async function shootLifecycle(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  await h.open('#/lookup');
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  const written: string[] = [];
  for (const [name, state] of STATES) {
    await page.evaluate(([channel, payload]) => window.__paydeskEmit(channel, payload), [
      eventChannelOf('lifecycle'),
      state,
    ] as const);
    await page.locator('.lifecycle-page').waitFor();
    const file = join(dir, name);
    await stableScreenshot(page, { path: file });
    written.push(file);
  }
  return written;
}
