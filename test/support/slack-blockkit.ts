/**
 * A Block Kit validator for every message the bot builds: Slack's limits (50 blocks, 3000-character
 * sections, 10 fields of 2000, 150-character headers, 75-character buttons, 2000-character values), the
 * `text` fallback, unique action ids per block and block ids per message, and no unescaped special mention
 * or link that could come from API text. A Home tab's view (https://docs.slack.dev/reference/views/home-tab-views) is
 * held to the same, with 100 blocks instead of 50, no `text`, a `callback_id` of at most 255 characters and a
 * `private_metadata` of at most 3,000. A section's accessory is a button or a multi-select menu of static options
 * (https://docs.slack.dev/reference/block-kit/block-elements/multi-select-menu-element): 1 to 100 options of 1 to 75
 * characters with distinct values of 1 to 150, a placeholder of at most 150, the initial options among the options.
 * Charts and tables are held to their references' limits:
 * - data visualization (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block): at most two a
 *   message; a title of 1 to 50 characters; a pie of 1 to 6 segments, each labelled (1 to 20 characters) and above
 *   zero; a line, bar or area chart of 1 to 6 series with distinct names of 1 to 20 characters, 1 to 20 distinct
 *   categories of 1 to 20 characters, exactly one finite point a category in each series, axis labels of at most 50;
 * - table (https://docs.slack.dev/reference/block-kit/blocks/table-block): one a message; 1 to 100 rows of 1 to 20
 *   cells, every row as long as the first; `raw_text` cells of at least one character (or `rich_text`); at most 20
 *   column settings (`left`, `center` or `right`); at most 10,000 characters across the cells of the message.
 */

export interface Msg {
  text?: unknown;
  blocks?: unknown;
}

const TYPES = new Set(['header', 'section', 'context', 'divider', 'actions', 'data_visualization', 'table']);

export function validateMessage(msg: Msg, label = 'message'): string[] {
  const problems: string[] = [];
  // An object written into text where a string was meant: never something a person should read.
  if (JSON.stringify(msg).includes('[object Object]')) problems.push(`${label}: "[object Object]" in its text`);
  if (typeof msg.text !== 'string' || msg.text.trim() === '') problems.push(`${label}: no text fallback`);
  else if (msg.text.length > 3000) problems.push(`${label}: text fallback of ${msg.text.length} characters`);
  if (msg.blocks === undefined) return problems;
  return [...problems, ...validateBlocks(msg.blocks, 50, label, typeof msg.text === 'string' ? msg.text : '')];
}

/** A Home tab's view, as `views.publish` takes it. */
export function validateView(view: any, label = 'view'): string[] {
  const problems: string[] = [];
  const p = (s: string) => problems.push(`${label}: ${s}`);
  if (view?.type !== 'home') p(`type ${view?.type} (home)`);
  if (view?.callback_id !== undefined && (typeof view.callback_id !== 'string' || view.callback_id.length > 255))
    p('bad callback_id');
  if (
    view?.private_metadata !== undefined &&
    (typeof view.private_metadata !== 'string' || view.private_metadata.length > 3000)
  )
    p('private_metadata over 3,000 characters');
  if (!Array.isArray(view?.blocks) || view.blocks.length === 0) return [...problems, `${label}: no blocks`];
  return [...problems, ...validateBlocks(view.blocks, 100, label, '')];
}

function validateBlocks(blocks: unknown, maxBlocks: number, label: string, fallback: string): string[] {
  const problems: string[] = [];
  const p = (s: string) => problems.push(`${label}: ${s}`);
  if (!Array.isArray(blocks)) return [`${label}: blocks is not an array`];
  if (blocks.length > maxBlocks) p(`${blocks.length} blocks (max ${maxBlocks})`);
  const blockIds = new Set<string>();
  const mrkdwns: string[] = [];
  const checkPlain = (t: any, max: number, where: string) => {
    if (t?.type !== 'plain_text' || typeof t.text !== 'string' || t.text.length === 0)
      p(`${where}: not a non-empty plain_text`);
    else if (t.text.length > max) p(`${where}: ${t.text.length} characters (max ${max})`);
  };
  const checkMrkdwn = (t: any, max: number, where: string) => {
    if (t?.type !== 'mrkdwn' || typeof t.text !== 'string' || t.text.length === 0)
      p(`${where}: not a non-empty mrkdwn`);
    else {
      if (t.text.length > max) p(`${where}: ${t.text.length} characters (max ${max})`);
      mrkdwns.push(t.text);
    }
  };
  const checkButton = (b: any, where: string, ids: Set<string>) => {
    if (b?.type !== 'button') return p(`${where}: not a button`);
    checkPlain(b.text, 75, `${where}.text`);
    if (typeof b.action_id !== 'string' || b.action_id.length === 0 || b.action_id.length > 255)
      p(`${where}: bad action_id`);
    else if (ids.has(b.action_id)) p(`${where}: duplicate action_id ${b.action_id}`);
    else ids.add(b.action_id);
    if (b.value !== undefined && (typeof b.value !== 'string' || b.value.length > 2000)) p(`${where}: value too long`);
    if (b.style !== undefined && b.style !== 'primary' && b.style !== 'danger') p(`${where}: bad style`);
  };
  const checkSelect = (m: any, where: string, ids: Set<string>) => {
    if (typeof m.action_id !== 'string' || m.action_id.length === 0 || m.action_id.length > 255)
      p(`${where}: bad action_id`);
    else if (ids.has(m.action_id)) p(`${where}: duplicate action_id ${m.action_id}`);
    else ids.add(m.action_id);
    checkPlain(m.placeholder, 150, `${where}.placeholder`);
    if (!Array.isArray(m.options) || m.options.length < 1 || m.options.length > 100)
      return p(`${where}: ${m.options?.length} options (1 to 100)`);
    const values = new Set<string>();
    for (const [j, o] of m.options.entries()) {
      checkPlain(o?.text, 75, `${where}.options[${j}].text`);
      if (typeof o?.value !== 'string' || o.value.length === 0 || o.value.length > 150)
        p(`${where}.options[${j}]: value of 1 to 150 characters`);
      else if (values.has(o.value)) p(`${where}.options[${j}]: value ${o.value} repeats`);
      else values.add(o.value);
    }
    for (const [j, o] of (m.initial_options ?? []).entries())
      if (!m.options.some((x: any) => x.value === o?.value && x.text?.text === o?.text?.text))
        p(`${where}.initial_options[${j}]: not one of the options`);
  };
  const checkAccessory = (a: any, where: string, ids: Set<string>) => {
    if (a?.type === 'multi_static_select') checkSelect(a, where, ids);
    else checkButton(a, where, ids);
  };
  const checkLabel = (t: unknown, max: number, where: string) => {
    if (typeof t !== 'string' || t.length === 0) p(`${where}: not a non-empty string`);
    else if ([...t].length > max) p(`${where}: ${[...t].length} characters (max ${max})`);
  };
  const checkChart = (b: any, where: string) => {
    checkLabel(b.title, 50, `${where}.title`);
    const c = b.chart;
    if (c?.type === 'pie') {
      if (!Array.isArray(c.segments) || c.segments.length < 1 || c.segments.length > 6)
        return p(`${where}: ${c.segments?.length} segments (1 to 6)`);
      for (const [j, s] of c.segments.entries()) {
        checkLabel(s?.label, 20, `${where}.segments[${j}].label`);
        if (typeof s?.value !== 'number' || !Number.isFinite(s.value) || s.value <= 0)
          p(`${where}.segments[${j}]: value ${s?.value} (a number above 0)`);
      }
      return;
    }
    if (!['bar', 'line', 'area'].includes(c?.type)) return p(`${where}: unknown chart type ${c?.type}`);
    const cats = c.axis_config?.categories;
    if (!Array.isArray(cats) || cats.length < 1 || cats.length > 20)
      return p(`${where}: ${cats?.length} categories (1 to 20)`);
    for (const [j, cat] of cats.entries()) checkLabel(cat, 20, `${where}.categories[${j}]`);
    if (new Set(cats).size !== cats.length) p(`${where}: categories repeat`);
    for (const axis of ['x_label', 'y_label'])
      if (c.axis_config[axis] !== undefined) checkLabel(c.axis_config[axis], 50, `${where}.${axis}`);
    if (!Array.isArray(c.series) || c.series.length < 1 || c.series.length > 6)
      return p(`${where}: ${c.series?.length} series (1 to 6)`);
    const names = c.series.map((s: any) => s?.name);
    if (new Set(names).size !== names.length) p(`${where}: series names repeat`);
    for (const [j, s] of c.series.entries()) {
      checkLabel(s?.name, 20, `${where}.series[${j}].name`);
      const labels = Array.isArray(s?.data) ? s.data.map((d: any) => d?.label) : [];
      if (labels.length !== cats.length || cats.some((cat: string) => !labels.includes(cat)))
        p(`${where}.series[${j}]: not exactly one point a category`);
      for (const d of s?.data ?? [])
        if (typeof d?.value !== 'number' || !Number.isFinite(d.value)) p(`${where}.series[${j}]: value ${d?.value}`);
    }
  };
  let charts = 0;
  let tables = 0;
  let tableChars = 0;
  const checkTable = (b: any, where: string) => {
    if (!Array.isArray(b.rows) || b.rows.length < 1 || b.rows.length > 100)
      return p(`${where}: ${b.rows?.length} rows (1 to 100)`);
    const width = Array.isArray(b.rows[0]) ? b.rows[0].length : 0;
    for (const [j, row] of b.rows.entries()) {
      if (!Array.isArray(row) || row.length < 1 || row.length > 20)
        p(`${where}.rows[${j}]: ${row?.length} cells (1 to 20)`);
      else if (row.length !== width) p(`${where}.rows[${j}]: ${row.length} cells, the first row has ${width}`);
      for (const [k, cell] of (Array.isArray(row) ? row : []).entries()) {
        if (cell?.type === 'raw_text') {
          if (typeof cell.text !== 'string' || cell.text.length === 0) p(`${where}.rows[${j}][${k}]: empty raw_text`);
          else tableChars += cell.text.length;
        } else if (cell?.type !== 'rich_text') p(`${where}.rows[${j}][${k}]: cell type ${cell?.type}`);
      }
    }
    if (b.column_settings !== undefined) {
      if (!Array.isArray(b.column_settings) || b.column_settings.length > 20)
        p(`${where}: ${b.column_settings?.length} column settings (max 20)`);
      for (const [j, cs] of (b.column_settings ?? []).entries())
        if (cs !== null && cs.align !== undefined && !['left', 'center', 'right'].includes(cs.align))
          p(`${where}.column_settings[${j}]: align ${cs.align}`);
    }
  };
  for (const [i, b] of (blocks as any[]).entries()) {
    const where = `blocks[${i}]`;
    if (!b || !TYPES.has(b.type)) {
      p(`${where}: unknown block type ${b?.type}`);
      continue;
    }
    if (b.block_id !== undefined) {
      if (typeof b.block_id !== 'string' || b.block_id.length > 255) p(`${where}: bad block_id`);
      else if (blockIds.has(b.block_id)) p(`${where}: duplicate block_id ${b.block_id}`);
      else blockIds.add(b.block_id);
    }
    const ids = new Set<string>();
    switch (b.type) {
      case 'header':
        checkPlain(b.text, 150, `${where}.text`);
        break;
      case 'section':
        if (b.text === undefined && b.fields === undefined) p(`${where}: section without text or fields`);
        if (b.text !== undefined) checkMrkdwn(b.text, 3000, `${where}.text`);
        if (b.fields !== undefined) {
          if (!Array.isArray(b.fields) || b.fields.length === 0 || b.fields.length > 10)
            p(`${where}: ${b.fields?.length} fields (1 to 10)`);
          else for (const [j, f] of b.fields.entries()) checkMrkdwn(f, 2000, `${where}.fields[${j}]`);
        }
        if (b.accessory !== undefined) checkAccessory(b.accessory, `${where}.accessory`, ids);
        break;
      case 'context':
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 10)
          p(`${where}: ${b.elements?.length} context elements (1 to 10)`);
        else for (const [j, e] of b.elements.entries()) checkMrkdwn(e, 3000, `${where}.elements[${j}]`);
        break;
      case 'actions':
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 25)
          p(`${where}: ${b.elements?.length} action elements (1 to 25)`);
        else for (const [j, e] of b.elements.entries()) checkButton(e, `${where}.elements[${j}]`, ids);
        break;
      case 'data_visualization':
        if (++charts > 2) p(`${where}: chart ${charts} of a message (max 2)`);
        checkChart(b, where);
        break;
      case 'table':
        if (++tables > 1) p(`${where}: table ${tables} of a message (max 1)`);
        checkTable(b, where);
        break;
    }
  }
  if (tableChars > 10_000) p(`${tableChars} characters across the table cells (max 10,000)`);
  for (const t of [...mrkdwns, fallback]) {
    // The bot writes only user mentions (<@U...>) and channel links (<#C...>) itself; anything else in angle
    // brackets came from data.
    const tokens = t.match(/<[^>]*>/g) ?? [];
    for (const tok of tokens)
      if (!/^<@U[A-Z0-9]+>$/.test(tok) && !/^<#[CG][A-Z0-9]+>$/.test(tok)) p(`unescaped Slack token ${tok}`);
    // The escaped form is `@` + zero-width space + `channel`, which this does not match.
    if (/@(channel|here|everyone)\b/i.test(t)) p(`special mention left active in "${t.slice(0, 80)}"`);
  }
  return problems;
}
