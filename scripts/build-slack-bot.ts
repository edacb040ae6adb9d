/**
 * Bundles the Slack bot into one ESM file runnable with plain `node` (dist/slack-bot/index.js). The sandbox
 * is bundled too, for the console mode that runs without any setting.
 */
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';

export interface BuildSlackBotOptions {
  /** Default dist/slack-bot/index.js. */
  outfile?: string;
}

export async function buildSlackBot(options: BuildSlackBotOptions = {}): Promise<string> {
  const outfile = options.outfile ?? 'dist/slack-bot/index.js';
  await build({
    entryPoints: ['slack-bot/index.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    // The bundled entry must start when run directly, whatever file name it has.
    define: { 'process.env.LINEN_BOT_BUNDLED': '"1"' },
    // Bundled CommonJS dependencies (Bolt, pdf-lib) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await buildSlackBot();
  console.log(`built ${out}`);
}
