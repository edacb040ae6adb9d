/**
 * A Block Kit validator for every message the bot builds: Slack's limits (50 blocks, 3000-character
 * sections, 10 fields of 2000, 150-character headers, 75-character buttons, 2000-character values), the
 * `text` fallback, unique action ids per block and block ids per message, and no unescaped special mention
 * or link that could come from API text.
 */

export interface Msg {
  text?: unknown;
  blocks?: unknown;
}

const TYPES = new Set(['header', 'section', 'context', 'divider', 'actions']);

export function validateMessage(msg: Msg, label = 'message'): string[] {
  const problems: string[] = [];
  const p = (s: string) => problems.push(`${label}: ${s}`);
  if (typeof msg.text !== 'string' || msg.text.trim() === '') p('no text fallback');
  else if (msg.text.length > 3000) p(`text fallback of ${msg.text.length} characters`);
  if (msg.blocks === undefined) return problems;
  if (!Array.isArray(msg.blocks)) return [...problems, `${label}: blocks is not an array`];
  if (msg.blocks.length > 50) p(`${msg.blocks.length} blocks (max 50)`);
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
  for (const [i, b] of (msg.blocks as any[]).entries()) {
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
        if (b.accessory !== undefined) checkButton(b.accessory, `${where}.accessory`, ids);
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
    }
  }
  for (const t of [...mrkdwns, typeof msg.text === 'string' ? msg.text : '']) {
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
