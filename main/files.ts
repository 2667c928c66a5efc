// Writing a file the user chose in the save dialog. Content that comes in chunks (a CSV export
// of the whole journal) is written as it comes, to `<name>.partial`, and given its name only
// once complete: a failed or interrupted export never leaves a file that looks finished.

import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';

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
  // Chunks are written where they belong in the file (each write names its position), a few at
  // a time on libuv's threads while the next ones are made; a source faster than the disk waits
  // for the oldest write once WRITES_AHEAD are under way, so memory holds a few chunks at most,
  // and the source rarely waits on a thread that a busy machine has not yet run.
  const writing: Promise<void>[] = [];
  let position = 0;
  try {
    for await (const chunk of content()) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      if (writing.length >= WRITES_AHEAD) await writing.shift();
      const write = writeAll(file, bytes, position);
      // Its failure is seen when it is awaited; until then it is not an unhandled rejection.
      write.catch(() => undefined);
      writing.push(write);
      position += bytes.byteLength;
    }
    for (const write of writing.splice(0)) await write;
    await file.close();
  } catch (error) {
    await Promise.allSettled(writing);
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, path);
}

/** Writes under way at once while a chunked content is written. */
const WRITES_AHEAD = 4;

/** All of `bytes` at `position` (a write may take fewer bytes than it is given). */
async function writeAll(file: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    const { bytesWritten } = await file.write(
      bytes,
      done,
      bytes.byteLength - done,
      position + done,
    );
    if (bytesWritten === 0) throw new Error('The file took no more bytes (is the disk full?).');
    done += bytesWritten;
  }
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
