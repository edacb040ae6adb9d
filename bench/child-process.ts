/**
 * A benchmark's helper server in a child process of its own (forked through tsx, or a bundle run with plain node),
 * so it does not share the bot's CPU or memory.
 */
import { type ChildProcess, fork } from 'node:child_process';

export interface Child<T> {
  /** The child's first message: what it started (its address). */
  ready: T;
  process: ChildProcess;
  /** Asks a question over IPC and waits for the answer. */
  ask<A>(question: string): Promise<A>;
  close(): Promise<void>;
}

/** `bundled`: `file` is a bundle for plain `node`, not a TypeScript source. */
export async function forkChild<T>(file: string, arg: unknown, options: { bundled?: boolean } = {}): Promise<Child<T>> {
  const child = fork(file, [JSON.stringify(arg)], {
    execArgv: options.bundled ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return {
    ready,
    process: child,
    ask: <A>(question: string) =>
      new Promise<A>((resolve) => {
        child.once('message', (m) => resolve(m as A));
        child.send(question);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
