// Types for ./before-pack.mjs, for the tests that import it.

export function ownMachineOnly(
  target: { platform: string; arch: string },
  host?: { platform: string; arch: string },
): string | null;

export default function beforePack(context: { electronPlatformName: string; arch: number }): void;
