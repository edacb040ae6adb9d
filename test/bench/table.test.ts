import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Figure, Results, resultsProblem } from '../../bench/results.ts';
import { renderTable, replaceTable, TABLE_END, TABLE_START } from '../../bench/table.ts';

const quiet = () => new Results(() => {});

function sample(): Figure[] {
  const r = quiet();
  r.add({ id: 'run.date', label: 'date', value: '2026-11-23T14:00:00Z' });
  r.add({ id: 'run.machine', label: 'machine', value: '2 cores, Node v20.20.0' });
  r.add({ id: 'run.load', label: 'load', value: '1.20 at start, 0.90 at end' });
  r.add({ id: 'run.mode', label: 'mode', value: 'full' });
  r.add({
    id: 'sheets.requests.100',
    label: 'Sheets: 100 cells, requests',
    value: 8,
    unit: 'requests',
    target: '<= 8',
    met: true,
  });
  r.add({
    id: 'slack.ack_p99_ms',
    label: 'Slack ack | p99',
    value: 61.25,
    unit: 'ms',
    baseline: 30,
    ratio: 2.04,
    target: '< 50 ms',
    met: false,
  });
  r.add({ id: 'client.shared_ceiling_fraction', label: 'Shared ceiling (not yet measured)', value: null });
  return r.figures;
}

describe('benchmark results', () => {
  it('accept figures with exactly the eight fields, nulls where a field does not apply', () => {
    expect(resultsProblem(sample())).toBeNull();
  });

  it('refuse a figure with a target but no verdict, or a duplicate id', () => {
    const [, , , , first] = sample();
    expect(resultsProblem([{ ...first!, met: null }])).toMatch(/target needs met/);
    expect(resultsProblem([first!, first!])).toMatch(/twice/);
    expect(resultsProblem([{ ...first!, value: '8' }])).toMatch(/finite number/);
  });

  it('the committed results.json is a valid results array with the ids the README quotes', () => {
    const figures = JSON.parse(readFileSync(new URL('../../bench/results.json', import.meta.url), 'utf8'));
    expect(resultsProblem(figures)).toBeNull();
    const ids = (figures as Figure[]).map((f) => f.id);
    for (const id of [
      'sheets.requests.100',
      'sheets.naive_requests.100',
      'sheets.requests.100x3',
      'sheets.naive_requests.100x3',
      'sheets.naive_error_cells.100x3',
      'sheets.requests.1000',
      'sheets.naive_requests.1000',
      'sheets.429s.100',
      'excel.requests.100',
      'excel.requests.100x3',
      'excel.naive_requests.100x3',
      'excel.429s.100',
      'client.ceiling_fraction',
      'client.ceiling_429s',
      'slack.ack_p99_ms',
      'slack.ack_floor_p99_ms',
      'slack.answer_overhead.balance',
      'slack.burst_requests.30',
      'sheets.bundle_bytes',
      'sheets.bundle_eval_ms',
      'digests.fetches_per_key.10000',
      'digests.time_vs_floor.10000',
      'digests.peak_rss_mb.10000',
      'digests.peak_rss_mb.1000',
      'digests.peak_rss_mb.1000.pg',
      'bot.first_start_rss_mb.embedded',
      'bot.idle_rss_mb.embedded',
      'bot.idle_rss_mb.pg',
    ])
      expect(ids).toContain(id);
  });
});

describe('README benchmark table', () => {
  it('shows a missed target visibly and a met one plainly, with the run date and machine', () => {
    const table = renderTable(sample());
    expect(table).toContain('2026-11-23T14:00:00Z');
    expect(table).toContain('2 cores, Node v20.20.0');
    expect(table).toMatch(/Slack ack \\\| p99 \| 61\.3 ms \| 30 ms \| 2\.04× \| < 50 ms \| \*\*NOT MET\*\*/);
    expect(table).toMatch(/\| 8 requests \|.*\| met \|/);
    expect(table).toContain('1 target not met');
    expect(table).toMatch(/Shared ceiling.*\| n\/a \|.*not yet measured/);
    expect(table).not.toContain('run.machine');
  });

  it('replaces only the text between the markers', () => {
    const readme = `# Title\n\nbefore\n${TABLE_START}\nold table\n${TABLE_END}\nafter\n`;
    const out = replaceTable(readme, 'new table');
    expect(out).toBe(`# Title\n\nbefore\n${TABLE_START}\nnew table\n${TABLE_END}\nafter\n`);
    expect(replaceTable(out, 'new table')).toBe(out);
  });

  it('refuses a README without the markers', () => {
    expect(() => replaceTable('# no table here\n', 'x')).toThrow(/markers/);
  });
});
