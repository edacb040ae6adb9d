/**
 * The sandbox in a child process of its own, so a benchmark of the bot measures the bot and not the sandbox
 * sharing its event loop. `startSandboxProcess` forks this file (through tsx); the child starts the sandbox and
 * reports its address over IPC.
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSandboxData, type SandboxOptions, startSandbox } from '../sandbox/index.ts';

/** What the child is started with: the sandbox's options (no `data`), and further keys copied from the demo key. */
type ProcessOptions = Omit<SandboxOptions, 'data'> & { extraKeys?: string[] };

export interface SandboxProcess {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startSandboxProcess(options: ProcessOptions): Promise<SandboxProcess> {
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify({ port: 0, ...options })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the sandbox process exited with ${code}`)));
  });
  return {
    baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) {
  const { extraKeys = [], ...options } = JSON.parse(process.argv[2] ?? '{}') as ProcessOptions;
  const data = structuredClone(
    await loadSandboxData({
      today: options.today ?? '2026-11-05',
      timeZone: options.timeZone ?? 'America/Chicago',
      seed: options.seed ?? 'linen',
    }),
  );
  const demo = data.keys.find((k) => k.secret === 'lk_live_demo_all_access')!;
  for (const [i, secret] of extraKeys.entries())
    data.keys.push({ ...demo, secret, key_id: `key_extra_${i}`, label: `extra ${i}` });
  const sandbox = await startSandbox({ ...options, data });
  process.send({ baseUrl: sandbox.baseUrl });
}
