/**
 * A service in a Node process of its own (a bot replica, the Excel service alone): the script runs through tsx and
 * prints `READY <port>` once it listens; stopping it sends SIGTERM and waits for the exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface ReadyProcess {
  child: ChildProcess;
  port: number;
}

export function startReadyProcess(
  script: string,
  env: Record<string, string>,
  /** Where the process's stderr goes: this process's, or a collector. */
  stderr: 'inherit' | ((text: string) => void) = 'inherit',
): Promise<ReadyProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', stderr === 'inherit' ? 'inherit' : 'pipe'],
  });
  if (typeof stderr === 'function') child.stderr!.on('data', (d: Buffer) => stderr(d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
