import { SYNC_MAPPING_DEFAULTS, type SyncJob, SyncMessage } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { changeText, countsText, syncTimeText } from '../lib/sync-format';
import { editSyncJobForm, jobNameProblem, newSyncJobForm, prefixProblem, syncJobBody, toggledJobBody } from '../lib/sync-job-form';

const JOB: SyncJob = {
  id: 3,
  sourceId: 1,
  sourceName: '恒岳 LDAP',
  sourceType: 'ldap',
  name: '每日同步',
  mapping: { ...SYNC_MAPPING_DEFAULTS, updateEmail: false },
  cron: '0 2 * * *',
  leaverRule: 'keep',
  enabled: true,
  nextRunAt: null,
  lastRun: null,
  updatedAt: '2026-11-20 09:00:00',
};

describe('sync job form', () => {
  it('saves a manual job without a schedule and a scheduled one with its expression tidied', () => {
    const values = { ...newSyncJobForm(), name: ' 每日同步 ', sourceId: 1, cron: ' 0  2 * * * ' };
    expect(syncJobBody(values, true, false)).toEqual({
      sourceId: 1,
      name: '每日同步',
      mapping: SYNC_MAPPING_DEFAULTS,
      cron: '',
      leaverRule: 'disable',
      enabled: true,
    });
    expect(syncJobBody({ ...values, schedule: 'cron' }, false, false).cron).toBe('0 2 * * *');
    // A chat platform's username options count only for chat sources.
    const chatValues = { ...values, usernameFrom: 'email' as const, usernamePrefix: ' wx_ ' };
    expect(syncJobBody(chatValues, true, true).mapping).toMatchObject({ usernameFrom: 'email', usernamePrefix: 'wx_' });
    expect(syncJobBody(chatValues, true, false).mapping).toMatchObject({ usernameFrom: 'userid', usernamePrefix: '' });
  });

  it('edits a job as saved and toggles it whole', () => {
    expect(syncJobBody(editSyncJobForm(JOB), JOB.enabled, false)).toEqual({
      sourceId: 1,
      name: '每日同步',
      mapping: JOB.mapping,
      cron: '0 2 * * *',
      leaverRule: 'keep',
      enabled: true,
    });
    expect(toggledJobBody(JOB)).toMatchObject({ enabled: false, cron: '0 2 * * *', mapping: JOB.mapping });
  });

  it('checks the name and the username prefix with the shared messages', () => {
    expect(jobNameProblem(' ')).toBe(SyncMessage.jobNameRequired);
    expect(jobNameProblem('同'.repeat(33))).toBe(SyncMessage.jobNameTooLong);
    expect(jobNameProblem('同'.repeat(32))).toBeUndefined();
    expect(prefixProblem('')).toBeUndefined();
    expect(prefixProblem('wx_')).toBeUndefined();
    for (const bad of ['1wx', 'wx-', 'abcdefghi', '微信']) expect(prefixProblem(bad)).toBe(SyncMessage.prefixInvalid);
  });
});

describe('sync texts', () => {
  it('shows a change as 字段：旧 → 新, and a new object’s fields by their value', () => {
    expect(changeText({ field: '手机号', from: '13910000002', to: '13910000009' }, 'update')).toBe('手机号：13910000002 → 13910000009');
    expect(changeText({ field: '邮箱', from: '', to: 'zm@hengyue.example' }, 'update')).toBe('邮箱：（空） → zm@hengyue.example');
    expect(changeText({ field: '姓名', from: '', to: '李欣' }, 'create')).toBe('姓名：李欣');
  });

  it('counts only what changes', () => {
    expect(countsText({ create: 2, update: 0, disable: 1, move: 0, failed: 1 })).toBe('新增 2 · 停用 1 · 失败 1');
    expect(countsText({ create: 0, update: 0, disable: 0, move: 0, failed: 0 })).toBe('无变更');
  });

  it('shows times in China time whether the server sends China-time text or an ISO instant', () => {
    expect(syncTimeText('2026-11-21 02:00:00')).toBe('2026-11-21 02:00:00');
    expect(syncTimeText('2026-11-20T18:00:00.000Z')).toBe('2026-11-21 02:00:00');
    expect(syncTimeText(null)).toBe('');
  });
});
