/**
 * A small HTML preview of a Slack message (Block Kit) and of a Teams card (Adaptive Card), drawn from the JSON the
 * bot sends, for screenshots in the docs. It is our own drawing, labelled as such on the page: not Slack's or
 * Microsoft's renderer, only enough of each (headers, text, fields, context, buttons, menus, tables, and charts as
 * SVG) to show what an answer holds: a Slack message or Home tab, a Teams card. Text from the message is set as text (`textContent`-safe: every string is escaped).
 */

const html = (s: unknown) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const COLORS = ['#2f6fde', '#e8a33d', '#1a9e8f', '#8b5fd6', '#d9534f', '#4caf50', '#b39ddb', '#64b5f6', '#c0ca33'];

export interface PreviewChart {
  kind: 'line' | 'bar' | 'hbar' | 'pie' | 'donut';
  title: string;
  categories: string[];
  series: { name: string; values: number[] }[];
  unit?: string | undefined;
}

const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** A chart as SVG: axes with the lowest and highest values, a line or bars a series, a legend; a pie's slices. */
export function svgChart(c: PreviewChart, width = 560): string {
  const legend = c.series.length > 1 || c.kind === 'pie' || c.kind === 'donut';
  const names = c.kind === 'pie' || c.kind === 'donut' ? c.categories : c.series.map((s) => s.name);
  const legendHtml = legend
    ? `<div class="legend">${names.map((n, k) => `<span><i style="background:${COLORS[k % COLORS.length]}"></i>${html(n)}</span>`).join('')}</div>`
    : '';
  const head = `<div class="chart-title">${html(c.title)}${c.unit ? ` <small>(${html(c.unit)})</small>` : ''}</div>`;
  if (c.kind === 'pie' || c.kind === 'donut') {
    const values = c.series[0]?.values ?? [];
    const total = values.reduce((s, v) => s + v, 0) || 1;
    let angle = -Math.PI / 2;
    const r = 80;
    const arcs = values.map((v, k) => {
      const a = (v / total) * Math.PI * 2;
      const [x1, y1] = [100 + r * Math.cos(angle), 100 + r * Math.sin(angle)];
      angle += a;
      const [x2, y2] = [100 + r * Math.cos(angle), 100 + r * Math.sin(angle)];
      return `<path d="M100 100 L${x1} ${y1} A${r} ${r} 0 ${a > Math.PI ? 1 : 0} 1 ${x2} ${y2} Z" fill="${COLORS[k % COLORS.length]}"/>`;
    });
    const hole = c.kind === 'donut' ? '<circle cx="100" cy="100" r="45" fill="white"/>' : '';
    return `${head}<svg class="chart" width="200" height="200" data-points="${values.length}">${arcs.join('')}${hole}</svg>${legendHtml}`;
  }
  const all = c.series.flatMap((s) => s.values);
  // Bars stand on zero; a line spans its own values, so that its movement shows.
  const lo = c.kind === 'line' ? Math.floor(Math.min(...all) - 1) : Math.min(0, ...all);
  const hi = c.kind === 'line' ? Math.ceil(Math.max(...all) + 1) : Math.max(...all, lo + 1);
  const pad = { l: 60, r: 10, t: 10, b: 46 };
  const h = 220;
  if (c.kind === 'hbar') {
    const rowH = 20;
    const height = c.categories.length * rowH + 10;
    const bars = c.categories.map((cat, k) => {
      const v = c.series[0]!.values[k]!;
      const w = ((v - lo) / (hi - lo)) * (width - 200);
      return `<text x="150" y="${k * rowH + 15}" text-anchor="end">${html(cat)}</text><rect x="156" y="${k * rowH + 3}" width="${w}" height="14" fill="${COLORS[0]}"/><text x="${160 + w}" y="${k * rowH + 15}">${num(v)}</text>`;
    });
    return `${head}<svg class="chart" width="${width}" height="${height}" data-points="${c.categories.length}">${bars.join('')}</svg>`;
  }
  const plotW = width - pad.l - pad.r;
  const plotH = h - pad.t - pad.b;
  const x = (k: number) => pad.l + (plotW * (k + 0.5)) / c.categories.length;
  const y = (v: number) => pad.t + plotH - ((v - lo) / (hi - lo)) * plotH;
  const axes = `<line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${pad.t + plotH}" stroke="#999"/><line x1="${pad.l}" y1="${pad.t + plotH}" x2="${pad.l + plotW}" y2="${pad.t + plotH}" stroke="#999"/><text x="${pad.l - 6}" y="${pad.t + 10}" text-anchor="end">${num(hi)}</text><text x="${pad.l - 6}" y="${pad.t + plotH}" text-anchor="end">${num(lo)}</text>`;
  const every = Math.ceil(c.categories.length / 8);
  const labels = c.categories
    .map((cat, k) =>
      k % every
        ? ''
        : `<text x="${x(k)}" y="${pad.t + plotH + 16}" text-anchor="middle">${html(cat.length === 10 ? cat.slice(5) : cat)}</text>`,
    )
    .join('');
  let marks: string;
  if (c.kind === 'line') {
    marks = c.series
      .map(
        (s, j) =>
          `<polyline fill="none" stroke="${COLORS[j % COLORS.length]}" stroke-width="2" points="${s.values.map((v, k) => `${x(k)},${y(v)}`).join(' ')}"/>`,
      )
      .join('');
  } else {
    const groupW = (plotW / c.categories.length) * 0.8;
    const barW = groupW / c.series.length;
    marks = c.series
      .map((s, j) =>
        s.values
          .map((v, k) => {
            const left = x(k) - groupW / 2 + j * barW;
            return `<rect x="${left}" y="${Math.min(y(v), y(0))}" width="${Math.max(1, barW - 1)}" height="${Math.abs(y(v) - y(0))}" fill="${COLORS[j % COLORS.length]}"/>`;
          })
          .join(''),
      )
      .join('');
  }
  return `${head}<svg class="chart" width="${width}" height="${h}" data-points="${c.categories.length}">${axes}${marks}${labels}</svg>${legendHtml}`;
}

const STYLE = `
  body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; margin: 0; background: #f4f4f6; color: #1d1c1d; }
  .frame { width: 640px; margin: 16px; background: white; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); padding: 16px 20px; }
  .banner { font-size: 12px; color: #6b6b6b; border: 1px dashed #bbb; border-radius: 4px; padding: 4px 8px; margin-bottom: 12px; background: #fafafa; }
  h2 { font-size: 18px; margin: 0 0 8px; }
  .context { color: #616061; font-size: 12px; margin: 4px 0; white-space: pre-wrap; }
  .section { margin: 6px 0; white-space: pre-wrap; }
  .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 4px 16px; margin: 6px 0; }
  hr { border: 0; border-top: 1px solid #ddd; margin: 10px 0; }
  button { font: inherit; font-size: 13px; border: 1px solid #bbb; background: white; border-radius: 4px; padding: 3px 10px; margin-right: 6px; }
  table { border-collapse: collapse; margin: 8px 0; font-size: 13px; width: 100%; }
  th, td { border: 1px solid #ddd; padding: 3px 6px; }
  th { background: #f0f0f0; }
  .chart-title { font-weight: 600; margin-top: 8px; }
  svg.chart { display: block; margin: 4px 0; font-size: 10px; fill: #444; }
  .legend span { margin-right: 12px; font-size: 12px; }
  .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
  .subtle { color: #616061; font-size: 12px; }
  .mono { font-family: Menlo, Consolas, monospace; }
  .row { display: flex; gap: 12px; align-items: center; }
  .row > div { flex: 1; }
  .menu { font-size: 13px; border: 1px solid #bbb; border-radius: 4px; padding: 3px 10px; color: #444; white-space: nowrap; }
  .menu::after { content: " ▾"; color: #888; }
`;

const page = (title: string, banner: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${html(title)}</title><style>${STYLE}</style></head><body><div class="frame"><div class="banner">${html(banner)}</div>${body}</div></body></html>`;

const EMOJI: Record<string, string> = {
  ':warning:': '⚠️',
  ':white_check_mark:': '✅',
  ':information_source:': 'ℹ️',
  ':red_circle:': '🔴',
  ':large_orange_circle:': '🟠',
  ':white_circle:': '⚪',
  ':page_facing_up:': '📄',
};

/** mrkdwn (already escaped for Slack, so already safe as HTML text) with its emphasis drawn. */
const mrkdwn = (s: string) =>
  s
    .replace(/"/g, '&quot;')
    .replace(/:[a-z_]+:/g, (m) => EMOJI[m] ?? m)
    .replace(/`([^`]*)`/g, '<code>$1</code>')
    .replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
    .replace(/(^|\s)_([^_\n]+)_/g, '$1<i>$2</i>');

/** A Slack message (or, `home`, a Home tab's view) as our preview draws it. */
export function slackPreview(message: { blocks: any[] }, surface: 'message' | 'home' = 'message'): string {
  const out = message.blocks.map((b) => {
    switch (b.type) {
      case 'header':
        return `<h2>${html(b.text.text)}</h2>`;
      case 'section': {
        const text = b.text ? `<div class="section">${mrkdwn(b.text.text)}</div>` : '';
        const fields = b.fields
          ? `<div class="fields">${b.fields.map((f: any) => `<div>${mrkdwn(f.text).replace(/\n/g, '<br>')}</div>`).join('')}</div>`
          : '';
        const a = b.accessory;
        // A menu shows the options chosen in it, or its placeholder.
        const chosen = (a?.initial_options ?? []).map((o: any) => o.text.text).join(', ');
        const aside = !a
          ? ''
          : a.type === 'button'
            ? `<button>${html(a.text.text)}</button>`
            : `<span class="menu" data-options="${a.options.length}">${html(chosen || a.placeholder.text)}</span>`;
        return aside ? `<div class="row"><div>${text}${fields}</div>${aside}</div>` : text + fields;
      }
      case 'context':
        return `<div class="context">${b.elements.map((e: any) => mrkdwn(e.text)).join(' ')}</div>`;
      case 'divider':
        return '<hr>';
      case 'actions':
        return `<div>${b.elements.map((e: any) => `<button>${html(e.text.text)}</button>`).join('')}</div>`;
      case 'table': {
        const aligns = (b.column_settings ?? []).map((c: any) => c?.align ?? 'left');
        const [head, ...rows] = b.rows as any[][];
        const cell = (tag: string, c: any, k: number) =>
          `<${tag} style="text-align:${aligns[k] ?? 'left'}">${html(c.text)}</${tag}>`;
        return `<table><tr>${head!.map((c, k) => cell('th', c, k)).join('')}</tr>${rows.map((r) => `<tr>${r.map((c, k) => cell('td', c, k)).join('')}</tr>`).join('')}</table>`;
      }
      case 'data_visualization': {
        const c = b.chart;
        return c.type === 'pie'
          ? svgChart({
              kind: 'pie',
              title: b.title,
              categories: c.segments.map((s: any) => s.label),
              series: [{ name: '', values: c.segments.map((s: any) => s.value) }],
            })
          : svgChart({
              kind: c.type === 'line' ? 'line' : 'bar',
              title: b.title,
              unit: c.axis_config.y_label,
              categories: c.axis_config.categories,
              series: c.series.map((s: any) => ({ name: s.name, values: s.data.map((d: any) => d.value) })),
            });
      }
      default:
        return '';
    }
  });
  return surface === 'home'
    ? page(
        'Slack Home tab (preview)',
        "Preview drawn by linen-connect's tests from the Home tab's Block Kit JSON — not Slack's own renderer.",
        out.join(''),
      )
    : page(
        'Slack answer (preview)',
        "Preview drawn by linen-connect's tests from the message's Block Kit JSON — not Slack's own renderer.",
        out.join(''),
      );
}

/** A Teams card as our preview draws it. */
export function teamsPreview(card: { body: any[] }): string {
  const runs = (el: any) =>
    el.inlines
      .map((r: any) => {
        if (typeof r === 'string') return html(r);
        const cls = [r.isSubtle ? 'subtle' : '', r.fontType === 'Monospace' ? 'mono' : ''].filter(Boolean).join(' ');
        let t = html(r.text);
        if (r.weight === 'Bolder') t = `<b>${t}</b>`;
        if (r.italic) t = `<i>${t}</i>`;
        if (r.size === 'Medium') t = `<span style="font-size:17px">${t}</span>`;
        return cls ? `<span class="${cls}">${t}</span>` : t;
      })
      .join('');
  const element = (el: any): string => {
    switch (el.type) {
      case 'RichTextBlock':
        return `<div class="section" style="margin:${el.spacing === 'None' ? 0 : 4}px 0">${runs(el)}</div>`;
      case 'Container':
        return `${el.separator ? '<hr>' : ''}<div>${(el.items ?? []).map(element).join('')}</div>`;
      case 'ColumnSet':
        return `<div class="row">${el.columns.map((c: any) => `<div style="flex:${c.width === 'auto' ? '0 0 auto' : 1}">${c.items.map(element).join('')}</div>`).join('')}</div>`;
      case 'ActionSet':
        return `<div>${el.actions.map((a: any) => `<button>${html(a.title)}</button>`).join('')}</div>`;
      case 'Input.ChoiceSet': {
        const chosen = String(el.value ?? '')
          .split(',')
          .filter(Boolean);
        const titles = el.choices.filter((c: any) => chosen.includes(c.value)).map((c: any) => c.title);
        return `<div style="margin:4px 0"><span class="menu" data-options="${el.choices.length}">${html(titles.join(', ') || el.placeholder)}</span></div>`;
      }
      case 'Table': {
        const aligns = el.columns.map((c: any) => (c.horizontalCellContentAlignment ?? 'Left').toLowerCase());
        const [head, ...rows] = el.rows as any[];
        const cell = (tag: string, c: any, k: number) =>
          `<${tag} style="text-align:${aligns[k]}">${c.items.map(element).join('')}</${tag}>`;
        return `<table><tr>${head.cells.map((c: any, k: number) => cell('th', c, k)).join('')}</tr>${rows.map((r: any) => `<tr>${r.cells.map((c: any, k: number) => cell('td', c, k)).join('')}</tr>`).join('')}</table>`;
      }
      case 'Chart.Line':
      case 'Chart.VerticalBar.Grouped':
        return svgChart({
          kind: el.type === 'Chart.Line' ? 'line' : 'bar',
          title: el.title,
          unit: el.yAxisTitle,
          categories: el.data[0].values.map((v: any) => String(v.x)),
          series: el.data.map((s: any) => ({ name: s.legend, values: s.values.map((v: any) => v.y) })),
        });
      case 'Chart.VerticalBar':
      case 'Chart.HorizontalBar':
        return svgChart({
          kind: el.type === 'Chart.HorizontalBar' ? 'hbar' : 'bar',
          title: el.title,
          unit: el.yAxisTitle,
          categories: el.data.map((d: any) => String(d.x)),
          series: [{ name: '', values: el.data.map((d: any) => d.y) }],
        });
      case 'Chart.Pie':
      case 'Chart.Donut':
        return svgChart({
          kind: el.type === 'Chart.Pie' ? 'pie' : 'donut',
          title: el.title,
          categories: el.data.map((d: any) => d.legend),
          series: [{ name: '', values: el.data.map((d: any) => d.value) }],
        });
      default:
        return '';
    }
  };
  return page(
    'Teams card (preview)',
    "Preview drawn by linen-connect's tests from the card's Adaptive Card JSON — not Microsoft Teams' own renderer.",
    card.body.map(element).join(''),
  );
}
