/**
 * `npm run build` (after the typecheck): every runnable piece bundled into dist/ with esbuild.
 * dist/sandbox/cli.js and dist/service/index.js run with plain `node`; dist/apps-script/ is clasp's root folder;
 * dist/excel-addin/ is what the service serves at PUBLIC_URL/excel/.
 */
import { build } from 'esbuild';
import { buildAppsScript } from './build-apps-script.ts';
import { buildExcelAddin } from './build-excel-addin.ts';
import { buildService } from './build-service.ts';
import { NODE_BUNDLE } from './node-bundle.ts';

await build({ ...NODE_BUNDLE, entryPoints: ['sandbox/cli.ts'], outfile: 'dist/sandbox/cli.js' });
console.log('built dist/sandbox/cli.js');

await buildService();
console.log('built dist/service/index.js');

await buildAppsScript();

await buildExcelAddin();
