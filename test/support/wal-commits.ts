// How many commits reached a database's WAL file, read from the file itself: SQLite writes each
// commit as frames, the last of which carries the database's size (a commit frame; other frames
// carry 0 there). Frames of this generation of the WAL carry the salts of its header; frames
// left over from before the WAL was last restarted do not, and end the count. A test that counts
// must keep the WAL from being checkpointed and restarted meanwhile (wal_autocheckpoint = 0).

import { readFileSync } from 'node:fs';

const HEADER = 32;
const FRAME_HEADER = 24;

/** Commits in the WAL file of the database at `file`, since the WAL was last restarted. */
export function walCommits(file: string): number {
  let wal: Buffer;
  try {
    wal = readFileSync(`${file}-wal`);
  } catch {
    return 0;
  }
  if (wal.length < HEADER) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}
