// The one place that makes Electron's updater: electron-updater's autoUpdater (NSIS on Windows,
// Squirrel.Mac on macOS, the AppImage or .deb updater on Linux), pointed at update-feed.json's
// feed when the desk has one, else at the package's own (app-update.yml). Outside a packaged app
// there is nothing to update, and a feed file that cannot be used turns checking off: both are
// said in Settings -> Updates. Loaded only when the app is packaged and the feed is usable.

import type { FeedChoice, FeedOptions } from './feed';
import type { UpdaterLike } from './updates';

export type UpdaterChoice = { updater: UpdaterLike } | { updater: undefined; offReason: string };

export const NOT_PACKAGED =
  'Updates are checked only by an installed Paydesk; this one runs from its source (npm start).';

/**
 * electron-updater is CommonJS and its autoUpdater a getter on module.exports: imported from the
 * CommonJS main bundle it is the namespace's default (module.exports itself), not a named export.
 */
async function loadElectronUpdater() {
  const loaded = await import('electron-updater');
  return loaded.default;
}

export async function electronUpdater(
  isPackaged: boolean,
  choice: FeedChoice,
  load: () => Promise<{
    autoUpdater: UpdaterLike & { setFeedURL(options: FeedOptions): void };
  }> = loadElectronUpdater,
): Promise<UpdaterChoice> {
  if (!isPackaged) return { updater: undefined, offReason: NOT_PACKAGED };
  if (choice.source === 'invalid') return { updater: undefined, offReason: choice.message };
  const { autoUpdater } = await load();
  if (choice.source === 'file') autoUpdater.setFeedURL(choice.feed);
  return { updater: autoUpdater };
}
