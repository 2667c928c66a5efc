// Writing a file the user chose in the save dialog. Content that comes in chunks (a CSV export
// of the whole journal) is written as it comes, to `<name>.partial`, and given its name only
// once complete: a failed or interrupted export never leaves a file that looks finished.

import { open, rename, rm, writeFile } from 'node:fs/promises';

/**
 * The whole text, or a source of chunks (text, or bytes already UTF-8) started only once the
 * file is chosen.
 */
export type FileContent = string | (() => AsyncIterable<string | Uint8Array>);

export async function writeContent(path: string, content: FileContent): Promise<void> {
  if (typeof content === 'string') {
    await writeFile(path, content, { encoding: 'utf8' });
    return;
  }
  const partial = `${path}.partial`;
  const file = await open(partial, 'w');
  // One chunk is written while the next is made (the write runs on libuv's threads), and no
  // more: the next write waits for the last, so a source faster than the disk is held back
  // and memory holds at most two chunks.
  let writing: Promise<unknown> = Promise.resolve();
  try {
    for await (const chunk of content()) {
      await writing;
      writing = typeof chunk === 'string' ? file.write(chunk, null, 'utf8') : file.write(chunk);
      // Its failure is seen by the next await; until then it is not an unhandled rejection.
      writing.catch(() => undefined);
    }
    await writing;
    await file.close();
  } catch (error) {
    await writing.catch(() => undefined);
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, path);
}

/** The whole text of `content` (for tests and harnesses that keep files in memory). */
export async function contentText(content: FileContent): Promise<string> {
  if (typeof content === 'string') return content;
  let text = '';
  const utf8 = new TextDecoder();
  for await (const chunk of content()) {
    text += typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
  }
  return text + utf8.decode();
}
