// The screenshots' randomness: what the pictures show is partly random in the app (the built-in
// sandbox's control key, and so every checksum; profile ids, serial numbers, approval codes,
// payment page tokens). So the screenshot process, and only it, draws node:crypto's randomUUID,
// randomBytes and randomInt from counters hashed with a fixed seed. Each place in the code that
// asks (its file and line) has its own counter, so a place asked a varying number of times (a
// status answer's serial number, once per poll) never shifts what another place gets; and
// every harness starts them afresh. Test-only data on loopback; the app never loads this file.

import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

type BytesCallback = (error: Error | null, bytes: Buffer) => void;
type IntCallback = (error: Error | null, value: number) => void;

const counters = new Map<string, number>();

/** Every counter back to its start (a new harness: a first start like the last run's). */
export function restartFixedRandomness(): void {
  counters.clear();
}

/** The place that asked: the first frame outside this file and node itself, without its column. */
function caller(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const outside = frames.find((f) => !f.includes('fixed-random') && !f.includes('node:'));
  // Without the checkout's folder: another checkout must draw the same values.
  return (
    outside
      ?.trim()
      .replace(/:\d+\)?$/, '')
      .replaceAll(ROOT, '') ?? ''
  );
}

function bytes(size: number): Buffer {
  const site = caller();
  const out = Buffer.alloc(size);
  for (let at = 0; at < size;) {
    const n = counters.get(site) ?? 0;
    counters.set(site, n + 1);
    const block = crypto.createHash('sha256').update(`paydesk-screenshots:${site}:${n}`).digest();
    at += block.copy(out, at);
  }
  return out;
}

/** Replaces node:crypto's random sources (for CommonJS and ES module importers alike). */
export function installFixedRandomness(): void {
  Object.assign(crypto, {
    randomBytes: (size: number, callback?: BytesCallback) => {
      const made = bytes(size);
      if (!callback) return made;
      process.nextTick(callback, null, made);
      return undefined;
    },
    randomUUID: () => {
      const b = bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const hex = b.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    randomInt: (first: number, second?: number | IntCallback, third?: IntCallback) => {
      const [min, max, callback] =
        typeof second === 'number' ? [first, second, third] : [0, first, second];
      const value = min + (bytes(6).readUIntBE(0, 6) % (max - min));
      if (!callback) return value;
      process.nextTick(callback, null, value);
      return undefined;
    },
  });
  syncBuiltinESMExports();
}
