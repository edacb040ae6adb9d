/**
 * The sandbox in a child process of its own, so a benchmark of the bot measures the bot and not the sandbox
 * sharing its event loop. `startSandboxProcess` forks this file (through tsx); the child starts the sandbox and
 * reports its address over IPC.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSandboxData, type SandboxOptions, startSandbox } from '../sandbox/index.ts';
import { forkChild } from './child-process.ts';

/** What the child is started with: the sandbox's options (no `data`), and further keys copied from the demo key. */
type ProcessOptions = Omit<SandboxOptions, 'data'> & { extraKeys?: string[] };

export interface SandboxProcess {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startSandboxProcess(options: ProcessOptions): Promise<SandboxProcess> {
  const child = await forkChild<{ baseUrl: string }>(fileURLToPath(import.meta.url), { port: 0, ...options });
  return { baseUrl: child.ready.baseUrl, close: child.close };
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
  // The benchmark gone (even killed), this process goes too.
  process.on('disconnect', () => process.exit(0));
  process.send({ baseUrl: sandbox.baseUrl });
}
