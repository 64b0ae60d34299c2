import { describe, expect, it } from 'vitest';
import { channelTotals, dailyOption, hasLookups } from '../lib/stats-charts';
import { exportFilename, formatAverage, formatRate, readStatsView, shareOf, statsQuery, statsSearch } from '../lib/stats-view';

const search = (query: string) => new URLSearchParams(query);

describe('标识统计 view in the URL', () => {
  it('reads a range of 7, 30 or 90 days and a prefix; anything else falls back to 30 days and every prefix', () => {
    expect(readStatsView(search(''))).toEqual({ days: 30 });
    expect(readStatsView(search('days=7&prefix=88.118.8'))).toEqual({ days: 7, prefix: '88.118.8' });
    expect(readStatsView(search('days=90&prefix=%2088.118.16%20'))).toEqual({ days: 90, prefix: '88.118.16' });
    for (const bad of ['days=15', 'days=7x', 'days=-7', 'days=', 'days=abc']) expect(readStatsView(search(bad))).toEqual({ days: 30 });
    expect(readStatsView(search('prefix=<b>'))).toEqual({ days: 30 });
    expect(readStatsView(search('prefix='))).toEqual({ days: 30 });
  });

  it('writes a view back without its defaults, and asks the server for the same', () => {
    expect(statsSearch({ days: 30 }).toString()).toBe('');
    expect(statsSearch({ days: 90, prefix: '88.118.8' }).toString()).toBe('days=90&prefix=88.118.8');
    expect(statsQuery({ days: 7 })).toEqual({ days: 7 });
    expect(statsQuery({ days: 7, prefix: '88.118.8' })).toEqual({ days: 7, prefix: '88.118.8' });
  });

  it('names exports by table and days, and writes shares as percentages', () => {
    expect(exportFilename('regions', { from: '2026-04-08', to: '2026-05-07' })).toBe('标识统计-regions-2026-04-08-2026-05-07.csv');
    expect(formatRate(0.1234)).toBe('12.3%');
    expect(formatRate(0.5)).toBe('50%');
    expect(formatRate(1)).toBe('100%');
    expect(shareOf(1, 3)).toBe('33.3%');
    expect(shareOf(5, 0)).toBe('0%');
    expect(formatAverage(3 / 30)).toBe('0.1');
    expect(formatAverage(3120 / 30)).toBe('104');
    expect(formatAverage(12345 / 7)).toBe('1,763.6');
  });
});

describe('标识统计 chart', () => {
  const days = [
    { day: '2026-05-06', web: 3, qr: 1, api: 0, upstream: 2 },
    { day: '2026-05-07', web: 1, qr: 4, api: 5, upstream: 0 },
  ];

  it('stacks one series per channel with Chinese names, counted in the legend', () => {
    const option = dailyOption(days);
    expect((option.xAxis as { data: string[] }).data).toEqual(['05-06', '05-07']);
    expect(option.series).toEqual([
      expect.objectContaining({ type: 'bar', name: '网页查询', stack: 'lookups', data: [3, 1] }),
      expect.objectContaining({ type: 'bar', name: '扫码', stack: 'lookups', data: [1, 4] }),
      expect.objectContaining({ type: 'bar', name: 'Handle API', stack: 'lookups', data: [0, 5] }),
      expect.objectContaining({ type: 'bar', name: '上游转发', stack: 'lookups', data: [2, 0] }),
    ]);
    const legend = option.legend as { formatter: (name: string) => string };
    expect(legend.formatter('扫码')).toBe('扫码 5');
    expect(channelTotals(days)).toEqual({ web: 4, qr: 5, api: 5, upstream: 2 });
    expect(hasLookups(days)).toBe(true);
    expect(hasLookups([{ day: '2026-05-07', web: 0, qr: 0, api: 0, upstream: 0 }])).toBe(false);
  });
});
