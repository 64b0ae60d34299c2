import { describe, expect, it } from 'vitest';
import { formatTime, parseTime, chinaTimeText } from '../time';

// The tests run with TZ unset; dates are built in local time so the expectations hold anywhere.
const at = (y: number, m: number, d: number, h = 0, i = 0, s = 0) => new Date(y, m - 1, d, h, i, s);

describe('parseTime (style.md, spec section 4)', () => {
  const moment = at(2026, 3, 7, 8, 5, 9);

  it('uses {y}-{m}-{d} {h}:{i}:{s} by default, two digits each', () => {
    expect(parseTime(moment)).toBe('2026-03-07 08:05:09');
  });

  it('reads 10-digit numbers and digit strings as seconds, longer ones as milliseconds', () => {
    const ms = moment.getTime();
    expect(parseTime(ms)).toBe('2026-03-07 08:05:09');
    expect(parseTime(Math.floor(ms / 1000))).toBe('2026-03-07 08:05:09');
    expect(parseTime(String(Math.floor(ms / 1000)))).toBe('2026-03-07 08:05:09');
  });

  it('reads a dashed date text as local time and takes any pattern, weekday included', () => {
    expect(parseTime('2026-03-07 08:05:09', '{y}年{m}月{d}日 星期{a}')).toBe('2026年03月07日 星期六');
    expect(parseTime(moment, '{h}:{i}')).toBe('08:05');
  });

  it('gives null for empty or invalid input', () => {
    expect(parseTime(null)).toBeNull();
    expect(parseTime(undefined)).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime('不是时间')).toBeNull();
  });
});

describe('formatTime (spec sections 4 and 9: 30 s, 3600 s, 86400 s, 172800 s)', () => {
  const now = at(2026, 11, 22, 12, 0, 0).getTime();
  const ago = (seconds: number) => now - seconds * 1000;

  it.each([
    [0, '刚刚'],
    [29, '刚刚'],
    [30, '1分钟前'],
    [61, '2分钟前'],
    [3599, '60分钟前'],
    [3600, '1小时前'],
    [3601, '2小时前'],
    [86_399, '24小时前'],
    [86_400, '1天前'],
    [172_799, '1天前'],
  ])('%i seconds ago → %s', (seconds, text) => {
    expect(formatTime(ago(seconds), undefined, now)).toBe(text);
  });

  it('shows older times as a date, or in the given pattern', () => {
    const old = at(2026, 11, 18, 9, 7, 0);
    expect(formatTime(old.getTime(), undefined, now)).toBe('11月18日9时7分');
    expect(formatTime(old.getTime(), '{y}-{m}-{d}', now)).toBe('2026-11-18');
    expect(formatTime(Math.floor(old.getTime() / 1000), undefined, now)).toBe('11月18日9时7分');
  });
});

describe('chinaTimeText', () => {
  it('shows an instant in China time (UTC+8) whatever the browser zone', () => {
    expect(chinaTimeText('2026-11-20T16:30:05.123Z')).toBe('2026-11-21 00:30:05');
    expect(chinaTimeText(new Date(Date.UTC(2026, 0, 1, 0, 0, 0)))).toBe('2026-01-01 08:00:00');
    expect(chinaTimeText('not a time')).toBe('');
  });
});
