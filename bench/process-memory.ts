/** Resident memory of a process, from Linux's /proc: now (VmRSS) and the peak since start or since a reset (VmHWM). */
import { readFileSync, writeFileSync } from 'node:fs';

const MIB = 1024; // /proc reports kB

function statusField(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!kb) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(kb[1]) / MIB;
}

/** Resident memory now, in MiB. */
export const rssMb = (pid: number | 'self' = 'self') => statusField(pid, 'VmRSS');

/** The highest resident memory since the process started (or since `resetPeakRss`), in MiB. */
export const peakRssMb = (pid: number | 'self' = 'self') => statusField(pid, 'VmHWM');

/** Starts this process's peak (VmHWM) afresh from its current resident memory; false where Linux refuses. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `work` and returns its result with this process's peak resident memory during it, in MiB: the kernel's
 * own peak when it can be reset, else sampled every 20 ms.
 */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number; beforeMb: number }> {
  const beforeMb = rssMb();
  const kernelPeak = resetPeakRss();
  let sampled = beforeMb;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, rssMb());
  }, 20);
  try {
    const value = await work();
    const peakMb = Math.max(sampled, rssMb(), kernelPeak ? peakRssMb() : 0);
    return { value, peakMb, beforeMb };
  } finally {
    clearInterval(timer);
  }
}
