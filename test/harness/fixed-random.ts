// The screenshots' randomness: what the pictures show is partly random in the app (the built-in
// sandbox's control key, and so every checksum; its serial numbers, approval codes and payment
// page tokens). So the screenshot process, and only it, draws node:crypto's randomUUID,
// randomBytes and randomInt from a counter hashed with a fixed seed: the same steps give the
// same values on every run. Test-only data on loopback; the app never loads this file.

import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

type BytesCallback = (error: Error | null, bytes: Buffer) => void;
type IntCallback = (error: Error | null, value: number) => void;

let counter = 0;

function bytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0; at < size;) {
    const block = crypto.createHash('sha256').update(`paydesk-screenshots:${counter++}`).digest();
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
