/**
 * One replica of the Excel service alone (`npm run excel:serve`'s server) for the shared-pacing run: its own
 * process, its store on DATABASE_URL, each key paced under PACING_LIMIT per PACING_WINDOW_MS. Prints `READY <port>`.
 */

import { createLogger } from '../../base/logging/logger.ts';
import { loadExcelServeConfig } from '../../excel-addin/service/config.ts';
import { serveExcel } from '../../excel-addin/service/serve.ts';

const env = process.env;
const server = await serveExcel(loadExcelServeConfig(env), {
  logger: createLogger({ write: (line) => process.stderr.write(`${line}\n`) }),
  rateLimit: { limit: Number(env.PACING_LIMIT), windowMs: Number(env.PACING_WINDOW_MS) },
});
process.stdout.write(`READY ${server.port}\n`);
process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
