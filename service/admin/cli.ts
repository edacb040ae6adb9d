/** `npm run admin -- status [--json]`: see run.ts. Errors are one line on stderr, never a stack. */
import { runAdmin } from './run.ts';

process.stdout.on('error', () => {});
runAdmin(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`linen-admin: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
