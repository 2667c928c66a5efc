// Writing a file the user chose in the save dialog. Content that comes in chunks (a CSV export
// of the whole journal) is written as it comes, to `<name>.partial`, and given its name only
// once complete: a failed or interrupted export never leaves a file that looks finished.

import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';

/**
 * UTF-8 bytes a source lends: whoever takes them calls `release` once they are copied, and the
 * source fills the same memory with its next chunks. A source that makes its chunks faster than
 * the garbage collector frees them (a journal export's) then holds a few buffers, not a growing
 * pile of garbage. A taker that keeps the bytes simply does not release them.
 */
export interface LentBytes {
  lent: Uint8Array;
  release(): void;
}

/** A chunk of a file's content: text, bytes already UTF-8, or such bytes lent. */
export type FileChunk = string | Uint8Array | LentBytes;

/** The whole text, or a source of chunks started only once the file is chosen. */
export type FileContent = string | (() => AsyncIterable<FileChunk>);

export async function writeContent(path: string, content: FileContent): Promise<void> {
  if (typeof content === 'string') {
    await writeFile(path, content, { encoding: 'utf8' });
    return;
  }
  const partial = `${path}.partial`;
  const file = await open(partial, 'w');
  // Chunks are copied into buffers of WRITE_BYTES, each written whole with one write where it
  // belongs in the file (each write names its position): a few writes at a time on libuv's
  // threads while the next chunks are made. A source faster than the disk waits for the oldest
  // write once WRITES_AHEAD are under way, and that write's buffer takes the next chunks: memory
  // holds WRITES_AHEAD + 1 buffers whatever the file's size. Copied, a chunk is garbage at once
  // and goes with the next young collection, instead of living on until its write is done and
  // then waiting, with every other chunk of the file, for a full collection.
  const writing: { done: Promise<void>; buffer: Buffer }[] = [];
  const spare: Buffer[] = [];
  let buffer: Buffer = Buffer.allocUnsafeSlow(WRITE_BYTES);
  let used = 0;
  let position = 0;
  const flush = async () => {
    if (used === 0) return;
    if (writing.length >= WRITES_AHEAD) {
      const oldest = writing.shift() as (typeof writing)[number];
      await oldest.done;
      spare.push(oldest.buffer);
    }
    const done = writeAll(file, [buffer.subarray(0, used)], position);
    // Its failure is seen when it is awaited; until then it is not an unhandled rejection.
    done.catch(() => undefined);
    writing.push({ done, buffer });
    position += used;
    used = 0;
    buffer = spare.pop() ?? Buffer.allocUnsafeSlow(WRITE_BYTES);
  };
  try {
    for await (const chunk of content()) {
      const bytes = bytesOf(chunk);
      for (let from = 0; from < bytes.byteLength;) {
        const part = Math.min(bytes.byteLength - from, WRITE_BYTES - used);
        buffer.set(bytes.subarray(from, from + part), used);
        used += part;
        from += part;
        if (used === WRITE_BYTES) await flush();
      }
      // Copied: lent bytes go back to their source.
      if (isLent(chunk)) chunk.release();
    }
    await flush();
    for (const write of writing.splice(0)) await write.done;
    await file.close();
  } catch (error) {
    await Promise.allSettled(writing.map((write) => write.done));
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, path);
}

/** Bytes written at once (a journal export's chunks are about 220 KB each). */
const WRITE_BYTES = 1024 * 1024;
/** Writes under way at once while a chunked content is written. */
const WRITES_AHEAD = 4;

/**
 * All of `buffers` at `position`, in order, by writev (a write may take fewer bytes than it is
 * given: the rest is written again from where it stopped).
 */
async function writeAll(
  file: FileHandle,
  buffers: readonly Uint8Array[],
  position: number,
): Promise<void> {
  let rest = [...buffers];
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await file.writev(rest, at);
    if (bytesWritten === 0) throw new Error('The file took no more bytes (is the disk full?).');
    at += bytesWritten;
    let skip = bytesWritten;
    while (rest.length > 0 && skip >= (rest[0] as Uint8Array).byteLength) {
      skip -= (rest[0] as Uint8Array).byteLength;
      rest = rest.slice(1);
    }
    if (skip > 0 && rest[0]) rest[0] = rest[0].subarray(skip);
  }
}

/** The whole text of `content` (for tests and harnesses that keep files in memory). */
export async function contentText(content: FileContent): Promise<string> {
  if (typeof content === 'string') return content;
  let text = '';
  const utf8 = new TextDecoder();
  for await (const chunk of content()) {
    text += typeof chunk === 'string' ? chunk : utf8.decode(bytesOf(chunk), { stream: true });
    if (isLent(chunk)) chunk.release();
  }
  return text + utf8.decode();
}

function isLent(chunk: FileChunk): chunk is LentBytes {
  return typeof chunk === 'object' && 'lent' in chunk;
}

/** A chunk's UTF-8 bytes. */
function bytesOf(chunk: FileChunk): Uint8Array {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return isLent(chunk) ? chunk.lent : chunk;
}

/** Where an export's totals go: beside it, its name with .totals.csv for .csv. */
export function totalsPathOf(path: string): string {
  return `${path.replace(/\.csv$/i, '')}.totals.csv`;
}
