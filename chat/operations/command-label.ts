/**
 * The command a person typed, as a metric label: its subcommand (`balance`, `signals`, `connect`, `usage`,
 * `unknown`...), one of a fixed set whatever was typed after it. Never the customer, number or text.
 */
import { parseCommand } from '../answers/grammar.ts';

export function commandLabelOf(text: string): string {
  return parseCommand(text).kind;
}
