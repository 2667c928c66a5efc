// Where the compile cache goes: each system's place for an application's caches, never the data
// folder (a fresh data folder keeps the compiled code of the last start).

import { describe, expect, it } from 'vitest';

import { appCacheDir, enableCompileCache } from '../../../main/compile-cache';

describe('appCacheDir', () => {
  it('follows XDG on Linux, and ignores a relative XDG_CACHE_HOME as the spec says', () => {
    expect(appCacheDir({}, 'linux', '/home/ann')).toBe('/home/ann/.cache/Paydesk');
    expect(appCacheDir({ XDG_CACHE_HOME: '/var/cache/ann' }, 'linux', '/home/ann')).toBe(
      '/var/cache/ann/Paydesk',
    );
    expect(appCacheDir({ XDG_CACHE_HOME: 'cache' }, 'linux', '/home/ann')).toBe(
      '/home/ann/.cache/Paydesk',
    );
  });

  it('uses Library/Caches on macOS', () => {
    expect(appCacheDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Caches/Paydesk');
  });

  it('uses the local (not roaming) application data on Windows', () => {
    expect(
      appCacheDir({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32', 'C:\\Users\\ann'),
    ).toMatch(/Local[\\/]Paydesk[\\/]Cache$/);
  });
});

describe('enableCompileCache', () => {
  it('leaves an AppImage alone: it is mounted at a new path on every start', () => {
    expect(
      enableCompileCache('/nonexistent/paydesk-cache', { APPIMAGE: '/opt/Paydesk.AppImage' }),
    ).toBe(false);
  });
});
