/**
 * `npm ci` (what CI runs on a clean clone) refuses a lockfile that lacks an optional dependency of a locked
 * package, such as a formatter's binary for another platform. `npm install` on this machine can write such a
 * lockfile when the registry has no build of that binary for the version asked: catch it here, not in CI.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

it('the lockfile holds every optional dependency of every locked package', () => {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      const nested = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
      if (!(nested in lock.packages) && !(`node_modules/${dep}` in lock.packages))
        missing.push(`${path || '(root)'} -> ${dep}`);
    }
  }
  expect(missing, 'pin a version whose platform packages the registry has, then npm install again').toEqual([]);
});
