// RSA key generation that never freezes the main process. node-forge's `generateKeyPair({ bits,
// workers: -1 })` without a callback takes node:crypto's *synchronous* path, which holds the
// event loop for seconds at 4096 bits; forge's pure-JS path is slower still and stalls the loop
// too. node:crypto's async generateKeyPair runs in the libuv thread pool and leaves the event
// loop free (forge's callback form is that same call plus a second parse). So we call
// node:crypto directly and let forge read the result, exactly as an imported key is read.

import { generateKeyPair as generateNative } from 'node:crypto';
import { promisify } from 'node:util';

import { KeyError } from './errors';
import { type KeyMaterial, keyMaterial } from './material';
import { rsaFromPrivateKeyInfo } from './pem';

const generateNativeAsync = promisify(generateNative);

export const KEY_SIZES = [2048, 3072, 4096] as const;
export type KeySize = (typeof KEY_SIZES)[number];
export const DEFAULT_KEY_SIZE: KeySize = 4096;

export async function generateKeyPair(bits: KeySize = DEFAULT_KEY_SIZE): Promise<KeyMaterial> {
  if (!(KEY_SIZES as readonly number[]).includes(bits)) {
    throw new KeyError('invalid-bits', 'Choose a key size of 2048, 3072 or 4096 bits.');
  }
  const { privateKey } = await generateNativeAsync('rsa', {
    modulusLength: bits,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return keyMaterial(rsaFromPrivateKeyInfo(privateKey.toString('binary')));
}
