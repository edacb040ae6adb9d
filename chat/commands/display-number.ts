/** A display number typed after a command (`manifest MAN-26-027570`, `order DS-26-01234`), normalized. */
import { type NumberFormat, parseDisplayNumber } from '../../shared/reports/lookup.ts';
import { Problem } from './command.ts';

export function parseNumberArg(
  words: readonly string[],
  format: NumberFormat,
): { number: string; rest: readonly string[] } | Problem {
  if (words.length === 0) return new Problem(`Give ${format.what}, like ${format.example}.`);
  try {
    return { number: parseDisplayNumber(words[0]!, format).number, rest: words.slice(1) };
  } catch {
    return new Problem(`"${words[0]}" is not ${format.what} like ${format.example}.`);
  }
}
