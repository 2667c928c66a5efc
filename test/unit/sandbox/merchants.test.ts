// The sandbox's merchant entries (merchants.json, startSandbox, addMerchant): what is taken as
// given, and a refusal that names the entry, the field and what to write there.

import { generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { MerchantRegistry, parseMerchant } from '../../../main/sandbox/merchants';

const publicKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();

describe('a merchant entry', () => {
  it('is taken with its login trimmed, a numeric endpoint id as text, and its public key read', () => {
    const merchant = parseMerchant({
      login: ' shop ',
      controlKey: 'K',
      endpointId: 1111,
      publicKeyPem,
      responseFormat: 'lines',
    });
    expect(merchant).toMatchObject({
      login: 'shop',
      controlKey: 'K',
      endpointId: '1111',
      responseFormat: 'lines',
    });
    expect(merchant.publicKey?.asymmetricKeyType).toBe('rsa');
    expect(parseMerchant({ login: 'a', controlKey: 'k', endpointId: ' 12 ' }).endpointId).toBe(
      '12',
    );
    // A blank key is no key (RSA-signed operations are then refused).
    expect(
      parseMerchant({ login: 'a', controlKey: 'k', endpointId: '1', publicKeyPem: ' ' }),
    ).not.toHaveProperty('publicKey');
  });

  it('is refused with the entry, the field and what to write', () => {
    const cases: [unknown, string][] = [
      [null, 'merchants[0]: a merchant is an object with login, controlKey and endpointId.'],
      [{ controlKey: 'k', endpointId: '1' }, 'merchants[0].login: login must be text.'],
      [
        { login: ' ', controlKey: 'k', endpointId: '1' },
        'merchants[0].login: login must not be empty.',
      ],
      [
        { login: 'a', controlKey: '', endpointId: '1' },
        'merchants[0].controlKey: controlKey must not be empty.',
      ],
      ...[0, 1.5, '01', 'x1', '12345678901234567890', null].map((endpointId): [unknown, string] => [
        { login: 'a', controlKey: 'k', endpointId },
        'merchants[0].endpointId: endpointId must be a positive whole number, for example 1111.',
      ]),
      [
        { login: 'a', controlKey: 'k', endpointId: '1', responseFormat: 'xml' },
        'merchants[0].responseFormat: responseFormat must be "json" or "lines".',
      ],
      [
        { login: 'a', controlKey: 'k', endpointId: '1', url: 'x' },
        'merchants[0].url: unknown field; a merchant has only login, controlKey, endpointId, publicKeyPem, responseFormat.',
      ],
    ];
    for (const [input, message] of cases)
      expect(() => parseMerchant(input, 'merchants[0]'), JSON.stringify(input)).toThrow(message);
  });

  it('a registry takes the fields addMerchant gives, absent ones included', () => {
    const registry = new MerchantRegistry();
    registry.add({ login: 'a', controlKey: 'k', endpointId: '7' });
    expect(registry.byLoginName('a')).toMatchObject({ endpointId: '7' });
  });
});
