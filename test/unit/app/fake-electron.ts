// A stand-in for the parts of 'electron' that main/ touches, recording what the app asks of it so
// tests can replay events (navigation, window.open, permission prompts) and check the answers.
// Tests load it with vi.mock('electron', () => import('./fake-electron')): the real package's
// index.js would try to download the Electron binary.

import { vi } from 'vitest';

type Listener = (...args: unknown[]) => unknown;

class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== wrapped),
      );
      return listener(...args);
    };
    return this.on(event, wrapped);
  }

  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

export type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: unknown,
) => void;
export type PermissionCheckHandler = (
  contents: unknown,
  permission: string,
  origin: string,
  details: unknown,
) => boolean;
export type DevicePermissionHandler = (details: unknown) => boolean;
export type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

export class FakeSession {
  permissionRequestHandler: PermissionRequestHandler | null = null;
  permissionCheckHandler: PermissionCheckHandler | null = null;
  devicePermissionHandler: DevicePermissionHandler | null = null;

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.permissionCheckHandler = handler;
  }

  setDevicePermissionHandler(handler: DevicePermissionHandler | null): void {
    this.devicePermissionHandler = handler;
  }
}

export class FakeWebContents extends FakeEmitter {
  readonly session = new FakeSession();
  windowOpenHandler: WindowOpenHandler | null = null;
  /** What main sent to the page: [channel, payload]. */
  readonly sent: [string, unknown][] = [];
  readonly send = vi.fn((channel: string, payload: unknown) => {
    this.sent.push([channel, payload]);
  });
  readonly isDestroyed = vi.fn(() => false);

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
}

export interface FakeWindowOptions {
  show?: boolean;
  backgroundColor?: string;
  webPreferences?: Record<string, unknown>;
}

export class FakeBrowserWindow extends FakeEmitter {
  static readonly instances: FakeBrowserWindow[] = [];

  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances.filter((w) => !w.destroyed);
  }

  readonly webContents = new FakeWebContents();
  readonly loadURL = vi.fn((_url: string) => Promise.resolve());
  readonly show = vi.fn();
  readonly focus = vi.fn();
  readonly restore = vi.fn();
  readonly isMinimized = vi.fn(() => false);
  readonly isDestroyed = vi.fn(() => this.destroyed);
  destroyed = false;

  constructor(readonly options: FakeWindowOptions) {
    super();
    FakeBrowserWindow.instances.push(this);
  }

  /** What Electron does when the user closes the window: 'close' may prevent it. */
  close(): void {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    this.destroyed = true;
    this.emit('closed');
  }
}

let resolveReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  resolveReady = resolve;
});

/** Fires the app's 'ready' moment, as Electron does once it has initialised. */
export function becomeReady(): void {
  resolveReady();
}

export const app = Object.assign(new FakeEmitter(), {
  isPackaged: false,
  requestSingleInstanceLock: vi.fn(() => true),
  quit: vi.fn(),
  exit: vi.fn((_code?: number) => undefined),
  relaunch: vi.fn(),
  enableSandbox: vi.fn(),
  getAppPath: vi.fn(() => '/opt/paydesk/resources/app.asar'),
  getPath: vi.fn((name: string) => `/tmp/paydesk-fake-${name}`),
  getVersion: vi.fn(() => '0.0.0-test'),
  whenReady: vi.fn(() => ready),
});

export const dialog = {
  showSaveDialog: vi.fn(() => Promise.resolve({ canceled: true, filePath: undefined })),
  showOpenDialog: vi.fn((..._args: unknown[]) =>
    Promise.resolve({ canceled: true, filePaths: [] as string[] }),
  ),
  showErrorBox: vi.fn(),
  showMessageBox: vi.fn(() => Promise.resolve({ response: 0 })),
};

export const nativeTheme = { shouldUseDarkColors: false };

export const Menu = {
  /** The template is the menu: tests read it back. */
  buildFromTemplate: vi.fn((template: unknown[]) => ({ template })),
  setApplicationMenu: vi.fn(),
};

export const clipboard = {
  writeText: vi.fn(),
};

export const ipcMain = {
  handle: vi.fn(),
  removeHandler: vi.fn(),
};

export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
  handle: vi.fn(),
};

export const shell = {
  openExternal: vi.fn((_url: string) => Promise.resolve()),
};

export { FakeBrowserWindow as BrowserWindow };
