// Settings -> Updates: checks the feed at start and once a day, lets electron-updater download a
// newer version in the background (it checks the download against the feed's sha512 and
// discards a mismatch), and installs only when the clerk presses "Install and restart" and
// nothing of this desk is in flight (policy.ts decides; the sentence says why not). Installing
// on quit is off: quitting never installs behind the clerk's back.
//
// It drives any updater with electron-updater's AppUpdater surface, so the tests run it on
// electron-updater's own Linux updater against a feed on 127.0.0.1, in Node; electron.ts makes
// the real one inside Electron.

import type { InFlightNow } from './policy';
import { checkDue, installDecision, isNewer } from './policy';

/** The part of electron-updater's AppUpdater that Paydesk uses. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  checkForUpdates(): Promise<{
    updateInfo: { version: string };
    downloadPromise?: Promise<unknown> | null;
  } | null>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type UpdatePhase =
  'off' | 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'failed';

export interface UpdateView {
  running: string;
  /** Where updates come from, in words. */
  feed: string;
  phase: UpdatePhase;
  /** The newer version the feed offers, once known. */
  offered: string | null;
  /** Downloaded so far, 0..100, while downloading. */
  percent: number | null;
  checkedAt: string | null;
  /** What went wrong, or why updates are off. */
  message: string | null;
  /** Whether "Install and restart" may be pressed now, and the sentence why not. */
  install: { allowed: true } | { allowed: false; reason: string };
}

export interface UpdatesDeps {
  running: string;
  feed: string;
  /** undefined: updates are off (`offReason` says why). */
  updater: UpdaterLike | undefined;
  offReason?: string;
  inFlightNow: () => Promise<InFlightNow>;
  log?: (
    level: 'info' | 'warn' | 'error',
    message: string,
    fields?: Record<string, unknown>,
  ) => void;
  onChanged?: (view: UpdateView) => void;
  now?: () => number;
  /** How often the "is a check due" question is asked (an hour; a laptop that slept catches up). */
  tickMs?: number;
}

const NOTHING_DOWNLOADED = 'No update has been downloaded yet.';

/** Why a download or a check failed, in a sentence for the clerk. */
export function updateFailure(error: Error & { code?: string }): string {
  if (error.code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/i.test(error.message)) {
    return "The download did not match the feed's sha512 checksum, so it was discarded and nothing will be installed. The next check tries again; if it keeps failing, tell whoever publishes the updates.";
  }
  return `The update could not be checked or downloaded: ${error.message}`;
}

export class Updates {
  private phase: UpdatePhase;
  private offered: string | null = null;
  private percent: number | null = null;
  private checkedAt: number | null = null;
  private message: string | null;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: UpdatesDeps) {
    this.now = deps.now ?? Date.now;
    this.phase = deps.updater ? 'idle' : 'off';
    this.message = deps.updater ? null : (deps.offReason ?? 'Updates are off.');
    const updater = deps.updater;
    if (!updater) return;
    updater.autoDownload = true;
    // Only the clerk's choice installs: never on quit, never an older version.
    updater.autoInstallOnAppQuit = false;
    updater.allowDowngrade = false;
    updater.on('update-available', (info) => {
      if (!isNewer(deps.running, info.version)) return;
      this.set('downloading', { offered: info.version, percent: 0 });
    });
    updater.on('download-progress', (progress) => {
      if (this.phase === 'downloading') this.set('downloading', { percent: progress.percent });
    });
    updater.on('update-downloaded', (info) => {
      if (!isNewer(deps.running, info.version)) return;
      deps.log?.('info', 'An update was downloaded', { version: info.version });
      this.set('ready', { offered: info.version, percent: null });
    });
    updater.on('error', (error) => {
      deps.log?.('error', 'Updates: the check or the download failed', { error: error.message });
      // A failed check after a download keeps the downloaded update installable.
      if (this.phase !== 'ready') this.set('failed', { message: updateFailure(error) });
    });
  }

  /** Checks now, then whenever a day has passed since the last check. */
  start(): void {
    if (!this.deps.updater || this.timer) return;
    void this.check();
    this.timer = setInterval(
      () => {
        if (checkDue(this.checkedAt, this.now())) void this.check();
      },
      this.deps.tickMs ?? 60 * 60_000,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Asks the feed; a newer version starts downloading. Resolves when the download has ended. */
  async check(): Promise<void> {
    const updater = this.deps.updater;
    if (!updater || this.phase === 'checking' || this.phase === 'downloading') return;
    if (this.phase !== 'ready') this.set('checking', { message: null });
    this.checkedAt = this.now();
    try {
      const result = await updater.checkForUpdates();
      const offered = result?.updateInfo.version;
      if (!offered || !isNewer(this.deps.running, offered)) {
        if (this.phase !== 'ready') this.set('up-to-date', { offered: null });
        return;
      }
      await result.downloadPromise;
    } catch (error) {
      // The 'error' event has said it; a rejection here is the same failure.
      if (this.phase !== 'ready' && this.phase !== 'failed')
        this.set('failed', { message: updateFailure(error as Error) });
    }
  }

  async view(): Promise<UpdateView> {
    return {
      running: this.deps.running,
      feed: this.deps.feed,
      phase: this.phase,
      offered: this.offered,
      percent: this.percent,
      checkedAt: this.checkedAt === null ? null : new Date(this.checkedAt).toISOString(),
      message: this.message,
      install: await this.installNow(),
    };
  }

  /**
   * The clerk pressed "Install and restart": quits and installs when a download is ready and
   * nothing of this desk is in flight; otherwise the sentence why not, and nothing happens.
   */
  async install(): Promise<{ installing: true } | { installing: false; reason: string }> {
    const decision = await this.installNow();
    if (!decision.allowed) {
      this.deps.log?.('info', 'Updates: install deferred', { reason: decision.reason });
      return { installing: false, reason: decision.reason };
    }
    this.deps.log?.('info', 'Updates: installing and restarting', { version: this.offered });
    this.deps.updater?.quitAndInstall(false, true);
    return { installing: true };
  }

  private async installNow(): Promise<UpdateView['install']> {
    if (this.phase !== 'ready') return { allowed: false, reason: NOTHING_DOWNLOADED };
    return installDecision(await this.deps.inFlightNow());
  }

  private set(
    phase: UpdatePhase,
    fields: Partial<{ offered: string | null; percent: number | null; message: string | null }>,
  ): void {
    this.phase = phase;
    if (fields.offered !== undefined) this.offered = fields.offered;
    if (fields.percent !== undefined) this.percent = fields.percent;
    if (fields.message !== undefined) this.message = fields.message;
    if (this.deps.onChanged) void this.view().then(this.deps.onChanged, () => undefined);
  }
}
