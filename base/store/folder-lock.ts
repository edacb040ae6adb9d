/**
 * One process per embedded store folder: PGlite has no lock of its own, and two processes writing one folder
 * corrupt it. The lock is a file beside the folder holding the owner's pid; a lock whose process is gone (a
 * crash) is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { DataFolderInUseError } from './errors.ts';

/** Folders this process holds (a second open in the same process is refused too). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

function ownerOf(lockFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // removed meanwhile
  }
}

/** Takes the folder for this process; throws DataFolderInUseError when a live process holds it. */
export function lockFolder(folder: string): { release(): void } {
  const lockFile = `${folder}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(lockFile);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(lockFile);
          if (ownerOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw e;
      const pid = ownerOf(lockFile);
      const ours = pid === process.pid && heldHere.has(lockFile);
      if (pid !== null && (ours || (pid !== process.pid && alive(pid)))) throw new DataFolderInUseError(folder, pid);
      rmSync(lockFile, { force: true }); // left by a process that is gone
    }
  }
}
