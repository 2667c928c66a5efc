// electron-builder's beforePack hook (electron-builder.yml): a package is built only for the
// operating system and architecture of the machine building it. Its native modules are the ones
// `npm ci` installed there (keytar compiled or downloaded for this machine, better-sqlite3's
// prebuilt binary for it), and electron-builder.yml packs them as installed; a package for
// another platform or architecture would carry binaries that cannot load. Build each one on its
// own machine (.github/workflows/release.yml does: Linux, Windows, macOS arm64 and x64).

// electron-builder's Arch enum, by number.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** Null when `target` is this machine; otherwise the sentence that says what to do. */
export function ownMachineOnly(target, host = { platform: process.platform, arch: process.arch }) {
  const platform = target.platform === 'mas' ? 'darwin' : target.platform;
  if (platform === host.platform && target.arch === host.arch) return null;
  return (
    `This machine is ${host.platform}-${host.arch}; it cannot build the ${platform}-${target.arch} ` +
    "package: the native modules (keytar, better-sqlite3) are this machine's own. Build that " +
    `package on a ${platform}-${target.arch} machine (see .github/workflows/release.yml).`
  );
}

export default function beforePack(context) {
  const problem = ownMachineOnly({
    platform: context.electronPlatformName,
    arch: ARCH_NAMES[context.arch] ?? String(context.arch),
  });
  if (problem !== null) throw new Error(problem);
}
