/** Bad `digest` command arguments: the message is the one sentence the person is answered with. */
export class ArgsError extends Error {
  override name = 'ArgsError';
}
