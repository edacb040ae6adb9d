/**
 * `tsx bench/profile-top.ts <file.cpuprofile> [--top=25]`: the functions a V8 CPU profile (`node --cpu-prof`, or a
 * benchmark run with BENCH_PROFILE_DIR) spent its samples in, by self time, each with the share of the whole
 * profile: the table the README quotes for where a run's time goes. Idle and garbage collection are listed as V8
 * names them (`(idle)`, `(garbage collector)`); a function is named with its file's last two path parts and line.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface FrameShare {
  frame: string;
  ms: number;
  share: number;
}

const where = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');

export function topFrames(profile: Profile, top = 25): FrameShare[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const msByFrame = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const f = byNode.get(id)?.callFrame;
    if (!f) return;
    const name = f.url
      ? `${f.functionName || '(anonymous)'} ${where(f.url)}:${f.lineNumber + 1}`
      : f.functionName || '(program)';
    msByFrame.set(name, (msByFrame.get(name) ?? 0) + us / 1000);
  });
  return [...msByFrame.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, ms]) => ({ frame, ms, share: ms / (total / 1000) }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profile-top.ts <file.cpuprofile> [--top=25]');
    process.exit(2);
  }
  const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
  for (const f of topFrames(JSON.parse(readFileSync(file, 'utf8')) as Profile, top))
    console.log(`${(f.share * 100).toFixed(1).padStart(5)} %  ${f.ms.toFixed(0).padStart(7)} ms  ${f.frame}`);
}
