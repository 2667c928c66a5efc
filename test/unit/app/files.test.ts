// Chunked file content with lent bytes (main/files.ts LentBytes): the writer and the reader of
// tests copy lent bytes before they hand them back, so a source that fills one buffer again for
// every chunk still gives the file every chunk's own bytes, with text and plain bytes between.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { contentText, writeContent, type FileChunk } from '../../../main/files';

/** Enough chunks of one buffer to cross several of the writer's 1 MiB writes. */
const CHUNKS = 40;
const CHUNK_BYTES = 100_000;

/**
 * One buffer lent again and again, each time full of its chunk's letter; it refuses to be filled
 * while its last chunk is still out. Every fifth chunk comes as text, the seventh as bytes of
 * their own. `expected` is what a file of them holds.
 */
function reusingSource(): { content: () => AsyncIterable<FileChunk>; expected: string } {
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let out = false;
  let expected = '';
  for (let i = 0; i < CHUNKS; i++) expected += letter(i).repeat(CHUNK_BYTES - i);
  async function* content(): AsyncGenerator<FileChunk> {
    for (let i = 0; i < CHUNKS; i++) {
      const text = letter(i).repeat(CHUNK_BYTES - i);
      if (i % 5 === 0) yield text;
      else if (i % 7 === 0) yield Buffer.from(text);
      else {
        if (out) throw new Error(`chunk ${i - 1}'s bytes were not handed back`);
        buffer.write(text);
        out = true;
        yield { lent: buffer.subarray(0, text.length), release: () => (out = false) };
      }
      // As a store does: its next chunk is made on the event loop's next turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return { content, expected };
}

const letter = (i: number) => String.fromCharCode(65 + (i % 26));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('chunked content with lent bytes', () => {
  it('writes each lent chunk’s own bytes before handing them back to be filled again', async () => {
    const { content, expected } = reusingSource();
    const path = join(dir, 'journal.csv');
    await writeContent(path, content);
    expect(readFileSync(path, 'latin1')).toBe(expected);
  });

  it('reads them the same way as text', async () => {
    const { content, expected } = reusingSource();
    expect(await contentText(content)).toBe(expected);
  });
});
