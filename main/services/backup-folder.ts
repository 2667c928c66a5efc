// Whether a folder can take this desk's backups, said before it is saved, naming the folder and
// what to fix. A folder that does not exist is not made (only the default one in the data
// folder is): a typo, or a share that is not connected, would otherwise get a folder of its own
// on this disk, and the backups would go there instead of where the person meant. Whether it can
// be written is learnt by writing: permission bits do not tell for a network share or on
// Windows, so a small file is written and removed.

import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { ServiceError } from './errors';

const codeOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';

const refuse = (message: string) => new ServiceError('INPUT', message, 'folder');

/**
 * Throws a ServiceError (field "folder") saying what is wrong with `folder` for backups, or
 * returns when backups can be written there. `mayMake`: the default folder, made when missing.
 */
export function checkBackupFolder(folder: string, mayMake: boolean): void {
  if (!isAbsolute(folder))
    throw refuse(
      `${folder} is not a whole folder path. Enter it from the root of a disk (such as /home/you/backups or D:\\Backups), or pick it with the Choose folder button.`,
    );
  if (mayMake) {
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw refuse(
        `Paydesk cannot make the folder ${folder} (${codeOf(error)}). Check that its disk is there and may be written, or choose another folder.`,
      );
    }
  }
  let found;
  try {
    found = statSync(folder);
  } catch (error) {
    if (codeOf(error) === 'ENOENT')
      throw refuse(
        `The folder ${folder} does not exist. Make it first (or connect the disk or network share it is on), then choose it again.`,
      );
    throw refuse(
      `Paydesk cannot look into ${folder} (${codeOf(error)}). Check that you may open it, or choose another folder.`,
    );
  }
  if (!found.isDirectory())
    throw refuse(`${folder} is a file, not a folder. Choose the folder to keep the backups in.`);
  const probe = join(folder, `.paydesk-write-check-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(probe, 'Paydesk checks that it may write here; this file is removed at once.');
  } catch (error) {
    throw refuse(
      `Paydesk cannot write in ${folder} (${codeOf(error)}). Choose a folder you may write in, or ask whoever manages it for write access.`,
    );
  }
  rmSync(probe, { force: true });
}
