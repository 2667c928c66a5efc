// What `npm start` does around launching Electron itself (scripts/electron-binary.mjs calls it):
// the environment Electron gets, and the one abort a fresh Linux desktop meets before any of
// Paydesk runs.
//
// Ubuntu 23.10 and later (24.04 LTS among them) stop unprivileged processes from making user
// namespaces unless an AppArmor profile allows it. Chromium's sandbox then falls back to its
// setuid helper, chrome-sandbox, and Electron's download unpacks that helper owned by the user
// without the setuid bit, so Electron aborts with "The SUID sandbox helper binary was found, but
// is not configured correctly". The fix is the user's to choose, with sudo: make the helper
// setuid root, or give this Electron an AppArmor profile that allows user namespaces. Turning the
// sandbox off (--no-sandbox) would also "work"; Paydesk never does it (design.md's renderer
// sandbox), so the advice never says it either.

import path from 'node:path';

const SUID_ABORT = 'The SUID sandbox helper binary was found, but is not configured correctly';

/**
 * The environment Electron is launched with. ELECTRON_RUN_AS_NODE (set in some shells and by
 * tools that run Electron as Node) would make it a plain Node running out/main/index.cjs without
 * any window, so it is dropped; the packaged app's fuse ignores it anyway.
 */
export function launchEnv(env) {
  const { ELECTRON_RUN_AS_NODE: _dropped, ...rest } = env;
  return rest;
}

/**
 * When `output` (Electron's stderr) shows the SUID sandbox abort: the advice, naming the helper
 * Electron named (or the one beside `binary`). Otherwise null.
 */
export function sandboxAbortAdvice(output, binary) {
  if (!output.includes(SUID_ABORT)) return null;
  const named = /make sure that (\S+chrome-sandbox) is owned by root/.exec(output)?.[1];
  const helper = named ?? path.join(path.dirname(binary), 'chrome-sandbox');
  const profile = 'paydesk-electron-dev';
  return [
    '',
    'Electron stopped before opening Paydesk: its sandbox helper is not set up. This Linux (Ubuntu',
    '23.10 and later, among others) lets a program sandbox itself only through AppArmor or a setuid',
    'helper, and the chrome-sandbox that came with the Electron download is not setuid root.',
    'Paydesk does not turn the sandbox off. Either make the helper setuid root (once per Electron',
    'download):',
    '',
    `  sudo chown root:root ${helper}`,
    `  sudo chmod 4755 ${helper}`,
    '',
    'or allow this Electron to sandbox itself with an AppArmor profile:',
    '',
    `  sudo tee /etc/apparmor.d/${profile} >/dev/null <<'EOF'`,
    'abi <abi/4.0>,',
    'include <tunables/global>',
    `profile ${profile} "${binary}" flags=(unconfined) {`,
    '  userns,',
    `  include if exists <local/${profile}>`,
    '}',
    'EOF',
    `  sudo apparmor_parser -r /etc/apparmor.d/${profile}`,
    '',
    'then run `npm start` again. A packaged Paydesk (deb, AppImage) sets its own helper up.',
    '',
  ].join('\n');
}
