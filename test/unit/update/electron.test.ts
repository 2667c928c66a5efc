// The seam that makes Electron's updater: nothing is loaded outside a packaged app or with a
// feed file that cannot be used (Settings -> Updates says which), the package's own feed is left
// as built, and update-feed.json's feed is handed to electron-updater as it stands.

import { describe, expect, it } from 'vitest';

import { electronUpdater, NOT_PACKAGED } from '../../../main/update/electron';
import type { FeedOptions } from '../../../main/update/feed';

function fakeLoad() {
  const feeds: FeedOptions[] = [];
  let loads = 0;
  const autoUpdater = {
    autoDownload: false,
    autoInstallOnAppQuit: true,
    allowDowngrade: true,
    checkForUpdates: () => Promise.resolve(null),
    quitAndInstall: () => undefined,
    on: () => autoUpdater,
    setFeedURL: (options: FeedOptions) => {
      feeds.push(options);
    },
  };
  return {
    feeds,
    loads: () => loads,
    load: () => {
      loads += 1;
      return Promise.resolve({ autoUpdater });
    },
    autoUpdater,
  };
}

describe('electronUpdater', () => {
  it('is off, and loads nothing, when Paydesk runs from its source', async () => {
    const fake = fakeLoad();
    expect(await electronUpdater(false, { source: 'package' }, fake.load)).toEqual({
      updater: undefined,
      offReason: NOT_PACKAGED,
    });
    expect(fake.loads()).toBe(0);
  });

  it("is off with the file's problem when update-feed.json cannot be used", async () => {
    const fake = fakeLoad();
    const choice = { source: 'invalid' as const, message: 'update-feed.json is not JSON' };
    expect(await electronUpdater(true, choice, fake.load)).toEqual({
      updater: undefined,
      offReason: 'update-feed.json is not JSON',
    });
    expect(fake.loads()).toBe(0);
  });

  it("keeps the package's feed, or points the updater at the desk's", async () => {
    const fake = fakeLoad();
    expect(await electronUpdater(true, { source: 'package' }, fake.load)).toEqual({
      updater: fake.autoUpdater,
    });
    expect(fake.feeds).toEqual([]);
    const feed = { provider: 'github' as const, owner: 'acme', repo: 'paydesk' };
    await electronUpdater(true, { source: 'file', feed }, fake.load);
    expect(fake.feeds).toEqual([feed]);
  });
});
