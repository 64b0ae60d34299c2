import { SyncMessage } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { CRON_PRESETS, CRON_REQUIRED, cronProblem, describeCron, scheduleText } from '../lib/cron';

describe('cron schedules of sync jobs', () => {
  it('accepts five fields of numbers, names, ranges, lists and steps', () => {
    for (const cron of ['0 2 * * *', '*/15 * * * *', '30 8-18/2 * * 1-5', '0 3 1,15 * *', '0 0 * JAN,JUL sun', '59 23 31 12 7'])
      expect(cronProblem(cron)).toBeUndefined();
  });

  it('refuses anything else with the shared message, and asks for one when empty', () => {
    expect(cronProblem('  ')).toBe(CRON_REQUIRED);
    for (const cron of [
      '0 2 * *',
      '0 2 * * * *',
      '60 2 * * *',
      '0 24 * * *',
      '0 2 0 * *',
      '0 2 * 13 *',
      '0 2 * * 8',
      '5-1 * * * *',
      '*/0 * * * *',
      'every day',
    ])
      expect(cronProblem(cron)).toBe(SyncMessage.cronInvalid);
  });

  it('puts common schedules in words and shows others as they are', () => {
    expect(describeCron('0 2 * * *')).toBe('每天 02:00');
    expect(describeCron('0 3 * * 1')).toBe('每周一 03:00');
    expect(describeCron('0 3 * * 0')).toBe('每周日 03:00');
    expect(describeCron('30 18 * * 1-5')).toBe('工作日（周一至周五）18:30');
    expect(describeCron('0 1 15 * *')).toBe('每月 15 日 01:00');
    expect(describeCron('0 * * * *')).toBe('每小时');
    expect(describeCron('20 * * * *')).toBe('每小时第 20 分钟');
    expect(describeCron('0 */4 * * *')).toBe('每 4 小时');
    expect(describeCron('*/10 * * * *')).toBe('每 10 分钟');
    expect(describeCron('0 2 * 1-6 *')).toBeUndefined();
    expect(scheduleText('0 2 * 1-6 *')).toBe('0 2 * 1-6 *');
    expect(scheduleText('')).toBe('手动');
  });

  it('offers presets that are valid schedules named as the words describe them', () => {
    for (const preset of CRON_PRESETS) expect(describeCron(preset.cron)).toBe(preset.label);
  });
});
