// The feed a desk checks: the package's own unless update-feed.json names another, and a file
// that cannot be used says what to fix and turns checking off rather than guess.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { describeFeed, parseFeed, readFeedChoice } from '../../../main/update/feed';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('parseFeed', () => {
  it('no file: the package feed', () => {
    expect(parseFeed(undefined)).toEqual({ source: 'package' });
  });

  it('a generic HTTPS server, and GitHub releases', () => {
    expect(
      parseFeed('{"provider":"generic","url":"https://updates.example.com/paydesk/"}'),
    ).toEqual({
      source: 'file',
      feed: { provider: 'generic', url: 'https://updates.example.com/paydesk/' },
    });
    const github = parseFeed('{"provider":"github","owner":"acme","repo":"paydesk"}');
    expect(github).toEqual({
      source: 'file',
      feed: { provider: 'github', owner: 'acme', repo: 'paydesk' },
    });
    expect(describeFeed(github)).toBe('GitHub releases of acme/paydesk');
  });

  it('plain HTTP only on this computer', () => {
    expect(parseFeed('{"provider":"generic","url":"http://127.0.0.1:8080/"}')).toMatchObject({
      source: 'file',
    });
    const plain = parseFeed('{"provider":"generic","url":"http://updates.example.com/"}');
    expect(plain).toEqual({
      source: 'invalid',
      message: expect.stringContaining(
        'update-feed.json cannot be used (url: url must be an https:// address',
      ) as string,
    });
  });

  it.each([
    ['not json', /is not JSON; fix it or remove it/],
    ['{"provider":"s3","bucket":"x"}', /provider: /],
    ['{"provider":"github","owner":"acme"}', /repo: /],
    ['{"provider":"github","owner":"a b","repo":"x"}', /owner: must be a GitHub name/],
    ['{"provider":"generic","url":"https://x/","extra":1}', /cannot be used/],
  ])('refuses %s with what to fix', (text, message) => {
    const choice = parseFeed(text);
    expect(choice.source).toBe('invalid');
    expect(choice.source === 'invalid' && choice.message).toMatch(message);
  });
});

describe('readFeedChoice', () => {
  it('reads update-feed.json in the user data folder', () => {
    dir = mkdtempSync(join(tmpdir(), 'paydesk-feed-'));
    expect(readFeedChoice(dir)).toEqual({ source: 'package' });
    writeFileSync(
      join(dir, 'update-feed.json'),
      '{"provider":"generic","url":"https://mirror.example.com/"}',
    );
    expect(readFeedChoice(dir)).toMatchObject({
      source: 'file',
      feed: { url: 'https://mirror.example.com/' },
    });
  });
});
