// Where updates come from. The package's own feed is built in: electron-builder.yml's `publish`
// (a generic HTTPS server by default) becomes app-update.yml beside the app, which
// electron-updater reads. A company that hosts its own releases points a desk elsewhere with
// update-feed.json in the user data folder: a generic HTTPS URL, or a GitHub repository's
// releases. The file is checked here, and a bad one is refused with the sentence that says what
// to fix: Paydesk then does not check at all rather than ask a feed nobody chose.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { z } from 'zod';

export const FEED_FILE = 'update-feed.json';

/** What electron-updater's setFeedURL takes for the two providers Paydesk supports. */
export type FeedOptions =
  | { provider: 'generic'; url: string; channel?: string }
  | { provider: 'github'; owner: string; repo: string; private?: boolean; host?: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** HTTPS, or plain HTTP on this computer only (a feed served for a test or a local mirror). */
const feedUrl = z
  .string()
  .trim()
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return (
          url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
        );
      } catch {
        return false;
      }
    },
    { message: 'url must be an https:// address (http:// only on 127.0.0.1)' },
  );

const name = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+$/, 'must be a GitHub name (letters, digits, - _ .)');

const feedSchema = z.discriminatedUnion('provider', [
  z
    .object({
      provider: z.literal('generic'),
      url: feedUrl,
      channel: z
        .string()
        .regex(/^[a-z0-9-]+$/)
        .optional(),
    })
    .strict(),
  z
    .object({
      provider: z.literal('github'),
      owner: name,
      repo: name,
      private: z.boolean().optional(),
      host: z.string().optional(),
    })
    .strict(),
]);

export type FeedChoice =
  /** No update-feed.json: the package's own feed (app-update.yml). */
  | { source: 'package' }
  | { source: 'file'; feed: FeedOptions }
  /** update-feed.json could not be used: no check, and this sentence in Settings -> Updates. */
  | { source: 'invalid'; message: string };

/** Reads update-feed.json's text; undefined text means there is no file. */
export function parseFeed(text: string | undefined, file = FEED_FILE): FeedChoice {
  if (text === undefined) return { source: 'package' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { source: 'invalid', message: `${file} is not JSON; fix it or remove it.` };
  }
  const parsed = feedSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return {
      source: 'invalid',
      message:
        `${file} cannot be used (${where}${issue?.message ?? 'not a feed'}). ` +
        'Write {"provider": "generic", "url": "https://..."} or {"provider": "github", "owner": "...", "repo": "..."}.',
    };
  }
  return { source: 'file', feed: parsed.data };
}

/** The desk's choice: update-feed.json in the user data folder, or the package's own feed. */
export function readFeedChoice(userDataDir: string): FeedChoice {
  const file = join(userDataDir, FEED_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return { source: 'invalid', message: `${file} cannot be read: ${(error as Error).message}` };
    }
  }
  return parseFeed(text, file);
}

/** Where the feed is, in words, for Settings -> Updates. */
export function describeFeed(choice: FeedChoice): string {
  if (choice.source === 'package') return 'the feed this package was built with';
  if (choice.source === 'invalid') return 'none (update-feed.json cannot be used)';
  const feed = choice.feed;
  return feed.provider === 'generic'
    ? feed.url
    : `GitHub releases of ${feed.owner}/${feed.repo}${feed.private ? ' (private)' : ''}`;
}
