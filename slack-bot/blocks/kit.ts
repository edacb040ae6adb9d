/**
 * The Block Kit subset the bot builds, as plain data. Each type is structurally a Slack `KnownBlock`, so a
 * message can go to `respond()`, `chat.postMessage` or the console renderer unchanged.
 */

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface Mrkdwn {
  type: 'mrkdwn';
  text: string;
}

export interface Button {
  type: 'button';
  text: PlainText;
  action_id: string;
  value?: string;
  style?: 'primary' | 'danger';
}

/** An option of a select menu: its text (75 characters at the most) and its value (150). */
export interface Option {
  text: PlainText;
  value: string;
}

/** https://docs.slack.dev/reference/block-kit/block-elements/multi-select-menu-element (static options). */
export interface MultiStaticSelect {
  type: 'multi_static_select';
  action_id: string;
  placeholder: PlainText;
  options: Option[];
  initial_options?: Option[];
}

export interface HeaderBlock {
  type: 'header';
  text: PlainText;
}

export interface SectionBlock {
  type: 'section';
  text?: Mrkdwn;
  fields?: Mrkdwn[];
  accessory?: Button | MultiStaticSelect;
}

export interface ContextBlock {
  type: 'context';
  block_id?: string;
  elements: Mrkdwn[];
}

export interface DividerBlock {
  type: 'divider';
}

export interface ActionsBlock {
  type: 'actions';
  block_id?: string;
  elements: Button[];
}

/** A point of a line, bar or area chart: its category (`label`) and value. */
export interface DataPoint {
  label: string;
  value: number;
}

export interface DataSeries {
  name: string;
  data: DataPoint[];
}

export interface AxisConfig {
  categories: string[];
  x_label?: string;
  y_label?: string;
}

export type ChartPayload =
  | { type: 'pie'; segments: DataPoint[] }
  | { type: 'line' | 'bar' | 'area'; series: DataSeries[]; axis_config: AxisConfig };

/** https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block */
export interface DataVisualizationBlock {
  type: 'data_visualization';
  block_id?: string;
  title: string;
  chart: ChartPayload;
}

export interface RawTextCell {
  type: 'raw_text';
  text: string;
}

export interface ColumnSetting {
  align?: 'left' | 'center' | 'right';
  is_wrapped?: boolean;
}

/** https://docs.slack.dev/reference/block-kit/blocks/table-block (the first row is the header). */
export interface TableBlock {
  type: 'table';
  block_id?: string;
  column_settings?: ColumnSetting[];
  rows: RawTextCell[][];
}

export type Block =
  | HeaderBlock
  | SectionBlock
  | ContextBlock
  | DividerBlock
  | ActionsBlock
  | DataVisualizationBlock
  | TableBlock;

/** What every handler returns: Block Kit plus the `text` fallback (notifications, screen readers). */
export interface Message {
  text: string;
  blocks: Block[];
}

/** https://docs.slack.dev/reference/views/home-tab-views: what `views.publish` shows on a person's Home tab. */
export interface HomeView {
  type: 'home';
  callback_id: string;
  /** Given back with every click on the view (3,000 characters at the most). */
  private_metadata: string;
  blocks: Block[];
}

/** Plain-text limits applied where the text is set (the limiter re-checks everything anyway). */
const cut = (text: string, max: number) => {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

export const header = (text: string): HeaderBlock => ({
  type: 'header',
  text: { type: 'plain_text', text: cut(text, 150), emoji: true },
});

export const section = (mrkdwn: string, accessory?: Button | MultiStaticSelect): SectionBlock =>
  accessory
    ? { type: 'section', text: { type: 'mrkdwn', text: mrkdwn }, accessory }
    : { type: 'section', text: { type: 'mrkdwn', text: mrkdwn } };

export const fields = (items: readonly string[], mrkdwn?: string): SectionBlock => {
  const block: SectionBlock = { type: 'section', fields: items.map((text) => ({ type: 'mrkdwn', text })) };
  if (mrkdwn !== undefined) block.text = { type: 'mrkdwn', text: mrkdwn };
  return block;
};

export const context = (...texts: string[]): ContextBlock => ({
  type: 'context',
  elements: texts.map((text) => ({ type: 'mrkdwn', text })),
});

export const divider = (): DividerBlock => ({ type: 'divider' });

export const button = (text: string, actionId: string, value?: string, style?: Button['style']): Button => {
  const b: Button = {
    type: 'button',
    text: { type: 'plain_text', text: cut(text, 75), emoji: true },
    action_id: actionId,
  };
  if (value !== undefined) b.value = value;
  if (style) b.style = style;
  return b;
};

/** A menu to choose several options of, those chosen now marked. */
export const multiSelect = (
  actionId: string,
  placeholder: string,
  options: readonly { text: string; value: string }[],
  chosen: readonly string[],
): MultiStaticSelect => {
  const all: Option[] = options.map((o) => ({
    text: { type: 'plain_text', text: cut(o.text, 75), emoji: true },
    value: o.value,
  }));
  const initial = all.filter((o) => chosen.includes(o.value));
  return {
    type: 'multi_static_select',
    action_id: actionId,
    placeholder: { type: 'plain_text', text: cut(placeholder, 150), emoji: true },
    options: all,
    ...(initial.length ? { initial_options: initial } : {}),
  };
};

export const actions = (elements: Button[], blockId?: string): ActionsBlock =>
  blockId ? { type: 'actions', block_id: blockId, elements } : { type: 'actions', elements };
