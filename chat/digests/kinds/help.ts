/** The `digest` command's usage and help, derived from a registry's kinds (their names, option words, phrases). */
import type { DigestKinds } from './registry.ts';

/** What every kind takes after its name: `[#channel]` is replaced by each platform's word for a channel. */
const COMMON_BEFORE = ['[#channel]', '[daily|weekly|weekdays|mon,wed,fri]', '[HH:MM]', '[customer, ...]'];
const COMMON_AFTER = ['[all-clear]'];
const MANAGE = ['list', 'unsubscribe <id>', 'pause <id>', 'resume <id>', 'preview [id | kind]'];

/** `digest subscribe [shortfall|receivables|…] [#channel] … [low|medium|high] [NN%] [NNd] [all-clear]`. */
export function subscribeSyntax(kinds: DigestKinds): string {
  const options = kinds.all.flatMap((k) => (k.help.options ? [k.help.options] : []));
  return ['digest subscribe', `[${kinds.names.join('|')}]`, ...COMMON_BEFORE, ...options, ...COMMON_AFTER].join(' ');
}

/** The `digest` command's help: its usage (every subcommand), what it does (each kind's phrase) and examples. */
export function digestHelp(kinds: DigestKinds): { usage: string; description: string; examples: readonly string[] } {
  return {
    usage: [subscribeSyntax(kinds), ...MANAGE].join(' | '),
    description: `Scheduled digests in a channel: ${kinds.all.map((k) => k.help.description).join(', ')}.`,
    examples: ['digest subscribe', ...kinds.all.flatMap((k) => k.help.examples ?? [])],
  };
}
