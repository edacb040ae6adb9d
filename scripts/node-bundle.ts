/** esbuild options shared by the bundles that run with plain `node`. */
import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (Bolt, pdf-lib) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};
