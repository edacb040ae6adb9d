/**
 * One bot replica for the shared-pacing runs: the real bot (HTTP receiver, its own store on DATABASE_URL, its
 * own pacing of the key) with the rate limit from PACING_LIMIT per PACING_WINDOW_MS. Prints `READY <port>`.
 */

import { createLogger } from '../../base/logging/logger.ts';
import { loadConfig } from '../../service/config.ts';
import { startBot } from '../../service/start.ts';

const env = process.env;
const bot = await startBot(loadConfig(env), {
  host: '127.0.0.1',
  logger: createLogger({ write: () => {} }),
  rateLimit: { limit: Number(env.PACING_LIMIT), windowMs: Number(env.PACING_WINDOW_MS) },
  digests: { worker: false },
});
process.stdout.write(`READY ${bot.port}\n`);
process.on('SIGTERM', async () => {
  await bot.stop();
  process.exit(0);
});
