/**
 * `npm run build`: typechecks, then bundles each runnable piece into dist/ with esbuild.
 * dist/sandbox/cli.js runs with plain `node` (no tsx, no node_modules needed beyond the bundle).
 */
import { build, type BuildOptions } from 'esbuild';
import { buildAppsScript } from './build-apps-script.ts';
import { buildSlackBot } from './build-slack-bot.ts';

const node: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (pdf-lib) may call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

await build({ ...node, entryPoints: ['sandbox/cli.ts'], outfile: 'dist/sandbox/cli.js' });
console.log('built dist/sandbox/cli.js');

await buildSlackBot();
console.log('built dist/slack-bot/index.js');

await buildAppsScript();
