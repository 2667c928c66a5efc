// What reached a database's WAL file, read from the file itself: SQLite writes each commit as
// frames, one per page it changed (a 24-byte header naming the page, then the page), the last of
// which carries the database's size (a commit frame; other frames carry 0 there). Frames of this
// generation of the WAL carry the salts of its header; frames left over from before the WAL was
// last restarted do not, and end the count. A test that counts must keep the WAL from being
// checkpointed and restarted meanwhile (wal_autocheckpoint = 0).

import { readFileSync } from 'node:fs';

import type Database from 'better-sqlite3';

const HEADER = 32;
const FRAME_HEADER = 24;

/** The pages of each commit in the WAL file of the database at `file`, oldest first. */
export function walCommitPages(file: string): number[][] {
  let wal: Buffer;
  try {
    wal = readFileSync(`${file}-wal`);
  } catch {
    return [];
  }
  if (wal.length < HEADER) return [];
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const commits: number[][] = [];
  let pages: number[] = [];
  for (let at = HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    pages.push(wal.readUInt32BE(at));
    if (wal.readUInt32BE(at + 4) !== 0) {
      commits.push(pages);
      pages = [];
    }
  }
  return commits;
}

/** Commits in the WAL file of the database at `file`, since the WAL was last restarted. */
export function walCommits(file: string): number {
  return walCommitPages(file).length;
}

/** Pages written to the WAL since `before` (a walCommitPages count of commits). */
export function walPagesSince(file: string, before: number): number {
  return walCommitPages(file)
    .slice(before)
    .reduce((n, pages) => n + pages.length, 0);
}

/**
 * The B-tree (table or index, by name) each page of the database belongs to, as SQLite's
 * dbstat table says (page 1 is sqlite_schema's; freelist pages are named by none).
 */
export function pageOwners(db: Database.Database): Map<number, string> {
  const rows = db.prepare('SELECT pageno, name FROM dbstat').all() as {
    pageno: number;
    name: string;
  }[];
  return new Map(rows.map((r) => [r.pageno, r.name]));
}
