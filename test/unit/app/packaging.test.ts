// electron-builder.yml decides what a packaged Paydesk is: these checks hold the parts the
// security model relies on (fuses, asar, native modules outside it and left as built), the
// identity the OS keys things by, and the targets and icons the README promises.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';
import { Minimatch } from 'minimatch';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file));

interface BuilderConfig {
  appId?: string;
  files?: string[];
  beforePack?: string;
  productName?: string;
  asar?: boolean;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  directories?: { buildResources?: string };
  electronFuses?: Record<string, boolean>;
  linux?: { target?: string | string[]; icon?: string };
  mac?: { target?: string | string[]; icon?: string };
  win?: { target?: string | string[]; icon?: string };
}

const config = parse(read('electron-builder.yml').toString('utf8')) as BuilderConfig;
const pkg = JSON.parse(read('package.json').toString('utf8')) as {
  productName: string;
  dependencies: Record<string, string>;
};

describe('electron-builder.yml', () => {
  it('flips every fuse that would let the packaged app run other code', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false, // ELECTRON_RUN_AS_NODE would make it a plain Node
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false, // NODE_OPTIONS=--require ...
      enableNodeCliInspectArguments: false, // --inspect attaches a debugger to main
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      // The flip breaks the binary's signature: re-signed ad hoc, or Apple Silicon refuses it.
      resetAdHocDarwinSignature: true,
    });
  });

  it('signs macOS with an identity only when one is given (the ad-hoc fuse signature otherwise)', () => {
    // identity null would skip signing; "-" would sign ad hoc even when CI has a Developer ID.
    expect(config.mac).not.toHaveProperty('identity');
  });

  it('packs the app into an asar archive (the integrity fuse checks it)', () => {
    expect(config.asar).toBe(true);
  });

  it('names the app as the OS and the user data folder know it', () => {
    // Reverse-DNS, not electron-builder's default com.electron.<name>: the macOS bundle id and
    // the Windows AppUserModelId. productName names the user data folder (the journal) in both
    // `npm start` and the package, so it must be package.json's.
    expect(config.appId).toBe('com.paydesk.console');
    expect(config.productName).toBe(pkg.productName);
  });

  // The production dependency tree, from the lockfile, and the native binaries in it.
  const lock = JSON.parse(read('package-lock.json').toString('utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  const production = Object.entries(lock.packages)
    .filter(([key, entry]) => key !== '' && entry.dev !== true && entry.devOptional !== true)
    .map(([key]) => key);
  function nativeFiles(dir: string): string[] {
    return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : nativeFiles(full);
      return entry.name.endsWith('.node') ? [full] : [];
    });
  }
  const natives = production.flatMap((dir) =>
    statSync(path.join(root, dir), { throwIfNoEntry: false }) ? nativeFiles(dir) : [],
  );

  it('finds the native modules it is about', () => {
    expect(production).toContain('node_modules/keytar');
    expect(natives.some((file) => file.startsWith('node_modules/keytar/'))).toBe(true);
    expect(natives.some((file) => file.startsWith('node_modules/better-sqlite3/'))).toBe(true);
  });

  it('unpacks every production native module from the asar', () => {
    expect(config.asarUnpack).toContain('**/*.node');
    const packages = new Set(natives.map((file) => file.split('/').slice(0, 2).join('/')));
    for (const dir of packages) {
      expect(config.asarUnpack).toContain(`**/${dir}/**`);
    }
  });

  it('packs the native modules as built, which is right only because they are Node-API', () => {
    // A Node-API module exports napi_register_module_v1; one tied to one Node or Electron ABI
    // exports node_register_module_v<ABI> and would have to be rebuilt for Electron.
    expect(config.npmRebuild).toBe(false);
    for (const file of natives) {
      const binary = read(file).toString('latin1');
      expect(binary, file).toContain('napi_register_module_v1');
      expect(binary, file).not.toMatch(/node_register_module_v\d/);
    }
  });

  // The names of better-sqlite3's prebuilt binaries, as its package ships them.
  const prebuilds = readdirSync(path.join(root, 'node_modules/better-sqlite3/prebuilds'));
  /** What a package built on `platform` for `arch` keeps of them, with electron-builder's matcher. */
  function keptPrebuilds(platform: string, arch: string): string[] {
    const excludes = (config.files ?? [])
      .filter((pattern) => pattern.startsWith('!'))
      .map((pattern) => pattern.replaceAll('${platform}', platform).replaceAll('${arch}', arch))
      .map((pattern) => new Minimatch(pattern, { dot: true }));
    return prebuilds.filter((name) =>
      excludes.every((m) => m.match(`node_modules/better-sqlite3/prebuilds/${name}`)),
    );
  }

  it('keeps only its own platform of the eight prebuilt better-sqlite3 binaries', () => {
    expect(prebuilds).toHaveLength(8);
    for (const [platform, arch] of [
      ['linux', 'x64'],
      ['linux', 'arm64'],
      ['darwin', 'arm64'],
      ['darwin', 'x64'],
      ['win32', 'x64'],
    ]) {
      expect(keptPrebuilds(platform!, arch!)).toEqual([`${platform}-${arch}.node`]);
    }
  });

  it('builds only for the machine it runs on: beforePack refuses another OS or architecture', async () => {
    expect(config.beforePack).toBe('./scripts/before-pack.mjs');
    const hook = await import('../../../scripts/before-pack.mjs');
    const x64 = 1;
    const arm64 = 3;
    const host = { platform: 'darwin', arch: 'x64' };
    expect(hook.ownMachineOnly({ platform: 'darwin', arch: 'x64' }, host)).toBeNull();
    expect(hook.ownMachineOnly({ platform: 'darwin', arch: 'arm64' }, host)).toContain(
      'Build that package on a darwin-arm64 machine',
    );
    expect(hook.ownMachineOnly({ platform: 'win32', arch: 'x64' }, host)).toContain(
      'cannot build the win32-x64 package',
    );
    // And as electron-builder calls it, here, for this machine and for another.
    const here = ['ia32', 'x64', 'armv7l', 'arm64'].indexOf(process.arch);
    expect(() =>
      hook.default({ electronPlatformName: process.platform, arch: here }),
    ).not.toThrow();
    const other = process.arch === 'arm64' ? x64 : arm64;
    expect(() => hook.default({ electronPlatformName: process.platform, arch: other })).toThrow(
      /cannot build/,
    );
  });

  it('builds every target the README names, and names every target it builds', () => {
    const readme = read('README.md').toString('utf8');
    const packaging = readme.slice(readme.indexOf('### Packaging'));
    const section = packaging.slice(0, packaging.indexOf('\n#', 1));
    const named = [...section.matchAll(/`(AppImage|deb|rpm|snap|dmg|pkg|zip|nsis|msi|portable)`/g)]
      .map((match) => match[1])
      .sort();
    const targets = (['linux', 'mac', 'win'] as const)
      .flatMap((platform) => config[platform]?.target ?? [])
      .sort();
    expect(named.length).toBeGreaterThan(0);
    expect(targets).toEqual(named);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
  });
});

describe('the app icon', () => {
  const resources = path.join(root, config.directories?.buildResources ?? 'build');
  const pngSize = (file: string) => {
    const png = readFileSync(file);
    expect(png.subarray(1, 4).toString('latin1'), file).toBe('PNG');
    return [png.readUInt32BE(16), png.readUInt32BE(20)];
  };

  it('gives Linux a PNG per size, named by its size, up to 1024', () => {
    const dir = path.join(resources, config.linux?.icon ?? '');
    const files = readdirSync(dir).filter((name) => name.endsWith('.png'));
    for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(files).toContain(`${size}x${size}.png`);
    }
    for (const name of files) {
      const size = Number(name.split('x')[0]);
      expect(pngSize(path.join(dir, name))).toEqual([size, size]);
    }
  });

  it('gives Windows an .ico with a 256 px image and macOS an .icns with a 1024 px one', () => {
    const ico = readFileSync(path.join(resources, config.win?.icon ?? ''));
    expect(ico.readUInt16LE(2)).toBe(1); // an icon, not a cursor
    const entries = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + 16 * i]);
    expect(entries).toContain(0); // 0 = 256 px

    const icns = readFileSync(path.join(resources, config.mac?.icon ?? ''));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      types.push(icns.subarray(at, at + 4).toString('latin1'));
    }
    expect(types).toContain('ic10'); // 1024 px (512@2x)
    expect(types).toContain('icp4'); // 16 px
  });
});
