/**
 * An answer as a small neutral document: a title, paragraphs, labelled fields, notes, lists of lines, charts,
 * tables and the actions a person can take. Built once from a report by the views; each chat platform renders it
 * (Block Kit in `slack-bot/blocks/`, an Adaptive Card in `teams-bot/cards/`, text in the console) and applies its
 * own limits. A chart is rendered with its numbers written beside it (`chart.ts`); a table carries the parts that
 * list its rows as lines (`table.ts`).
 */
import type { Chart } from './chart.ts';
import type { Rich } from './rich.ts';
import type { Table } from './table.ts';

/** What a PDF action carries: enough to list the invoice again (its signed link lasts 15 minutes). */
export interface PdfRef {
  /** invoice id */
  i: string;
  /** customer id */
  c: string;
  /** org-local issued day */
  d: string;
  /** invoice number, for messages */
  n: string;
}

export type Action =
  /** Post the same answer for everyone where it was asked (the command that answers it again). */
  | { readonly kind: 'share'; readonly command: string }
  /** Deliver an invoice's PDF to the person privately. */
  | { readonly kind: 'pdf'; readonly invoice: PdfRef }
  /** Ask again with a choice made (a customer picked from several): `command` is the command to answer. */
  | { readonly kind: 'rerun'; readonly label: string; readonly command: string }
  /**
   * Ask `command` and show its answer in place of this one at once, where this one is shown (a home rebuilt, a
   * digest paused from it): Teams answers the card's action with the new card, Slack publishes the Home tab again.
   */
  | { readonly kind: 'refresh'; readonly label: string; readonly command: string };

export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
}

/**
 * Options to choose several of, which change the answer: choosing asks `command` followed by the values chosen
 * (`choiceCommand`), and its answer replaces this one as a `refresh` action's does. Slack applies a choice as it is
 * made; Teams, whose inputs send nothing by themselves, with a button labelled `apply`.
 */
export interface Choice {
  /** The line beside the menu. */
  readonly label: Rich;
  readonly placeholder: string;
  readonly options: readonly ChoiceOption[];
  /** The values chosen now. */
  readonly chosen: readonly string[];
  readonly command: string;
  readonly apply: string;
}

/** The command a choice asks with the values chosen (none: the command alone). */
export const choiceCommand = (command: string, values: readonly string[]): string =>
  values.length ? `${command} ${values.join(', ')}` : command;

export interface Field {
  readonly label: string;
  readonly value: Rich;
}

export type Part =
  | { readonly kind: 'title'; readonly text: string }
  /** A paragraph, with at most one action beside it (an invoice's PDF). */
  | { readonly kind: 'text'; readonly text: Rich; readonly action?: Action | undefined }
  /** Labelled values side by side, with an optional line above them. */
  | { readonly kind: 'fields'; readonly fields: readonly Field[]; readonly text?: Rich | undefined }
  /** Small print: how a figure is computed, a time zone, what was left out. */
  | { readonly kind: 'note'; readonly texts: readonly Rich[] }
  | { readonly kind: 'divider' }
  | { readonly kind: 'actions'; readonly actions: readonly Action[] }
  /** A chart of the answer's numbers; rendered with its numbers beside it (two blocks in Slack). */
  | { readonly kind: 'chart'; readonly chart: Chart }
  /**
   * Rows to scan (with a line for the rows a platform leaves out: two blocks in Slack), and the parts that list the
   * same rows as lines: its text equivalent, which also holds the rows' buttons where the platform has no room for
   * them in a table (Slack). A platform may leave the lines out where the table shows all they say (a Teams card over
   * its size).
   */
  | { readonly kind: 'table'; readonly table: Table; readonly lines: readonly Part[] }
  | { readonly kind: 'choice'; readonly choice: Choice };

/**
 * An answer that keeps itself current where it stays on screen: a platform that can (Teams' Universal Actions) asks
 * `command` again whenever one of `userIds` views it, and shows them its answer instead; everyone else sees it as
 * it was built.
 */
export interface Live {
  readonly command: string;
  readonly userIds: readonly string[];
}

export interface Content {
  /** The answer in a sentence or two: notifications, screen readers, a card's summary. */
  readonly summary: Rich;
  readonly parts: readonly Part[];
  readonly live?: Live | undefined;
}

export const title = (text: string): Part => ({ kind: 'title', text });
export const text = (t: Rich, action?: Action): Part =>
  action ? { kind: 'text', text: t, action } : { kind: 'text', text: t };
export const fields = (items: readonly Field[], t?: Rich): Part =>
  t === undefined ? { kind: 'fields', fields: items } : { kind: 'fields', fields: items, text: t };
export const field = (label: string, value: Rich): Field => ({ label, value });
export const note = (...texts: Rich[]): Part => ({ kind: 'note', texts });
export const divider = (): Part => ({ kind: 'divider' });
export const actions = (items: readonly Action[]): Part => ({ kind: 'actions', actions: items });
export const chart = (c: Chart): Part => ({ kind: 'chart', chart: c });
export const table = (t: Table, lines: readonly Part[]): Part => ({ kind: 'table', table: t, lines });
export const choice = (c: Choice): Part => ({ kind: 'choice', choice: c });
