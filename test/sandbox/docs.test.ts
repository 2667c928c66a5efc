// docs/sandbox.md is what users read to understand a refusal: its error-code table must say
// exactly what main/sandbox/codes.ts answers.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ERROR_CODES } from '../../main/sandbox';

describe('docs/sandbox.md', () => {
  it('documents every error code with its HTTP status, and no other', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/sandbox.md'), 'utf8');
    const section = doc.slice(
      doc.indexOf('## Error codes'),
      doc.indexOf('## Misbehaviour switches'),
    );
    const documented = [...section.matchAll(/^\| (\d+) +\| (\d{3}) +\|/gm)]
      .map((m) => `${m[1]}:${m[2]}`)
      .sort();
    const defined = Object.values(ERROR_CODES)
      .map((e) => `${e.code}:${e.http}`)
      .sort();
    expect(documented).toEqual(defined);
  });
});
