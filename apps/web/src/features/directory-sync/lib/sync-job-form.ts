import {
  SYNC_JOB_NAME_MAX,
  SYNC_MAPPING_DEFAULTS,
  SYNC_USERNAME_PREFIX_MAX,
  type SyncJob,
  type SyncJobInput,
  type SyncLeaverRule,
  type SyncMapping,
  SyncMessage,
} from '@portal/shared';

/** 执行方式: 手动 only, or 定时 by a cron expression. */
export type SyncSchedule = 'manual' | 'cron';

/** The 新增 / 编辑 form of a sync job. */
export interface SyncJobFormValues {
  name: string;
  sourceId: number | undefined;
  groups: boolean;
  updatePhone: boolean;
  updateEmail: boolean;
  usernameFrom: SyncMapping['usernameFrom'];
  usernamePrefix: string;
  schedule: SyncSchedule;
  cron: string;
  leaverRule: SyncLeaverRule;
}

export type SyncJobFormField = keyof SyncJobFormValues;

export const SOURCE_REQUIRED = '请选择认证源';

/** A new job: the shared mapping defaults, run by hand, leavers disabled. */
export function newSyncJobForm(): SyncJobFormValues {
  return {
    name: '',
    sourceId: undefined,
    ...SYNC_MAPPING_DEFAULTS,
    schedule: 'manual',
    cron: '',
    leaverRule: 'disable',
  };
}

export function editSyncJobForm(job: SyncJob): SyncJobFormValues {
  return {
    name: job.name,
    sourceId: job.sourceId,
    ...job.mapping,
    schedule: job.cron ? 'cron' : 'manual',
    cron: job.cron,
    leaverRule: job.leaverRule,
  };
}

const trimmed = (value: string | undefined) => (value ?? '').trim();

/**
 * The body of 新增 and 编辑; a manual job is saved without a schedule. Usernames of an LDAP source
 * come from its attribute mapping, so the chat platforms' username options are sent as defaults.
 */
export function syncJobBody(values: SyncJobFormValues, enabled: boolean, chat: boolean): SyncJobInput {
  return {
    sourceId: values.sourceId ?? 0,
    name: trimmed(values.name),
    mapping: {
      groups: values.groups,
      usernameFrom: chat ? values.usernameFrom : SYNC_MAPPING_DEFAULTS.usernameFrom,
      usernamePrefix: chat ? trimmed(values.usernamePrefix) : SYNC_MAPPING_DEFAULTS.usernamePrefix,
      updatePhone: values.updatePhone,
      updateEmail: values.updateEmail,
    },
    cron: values.schedule === 'cron' ? trimmed(values.cron).split(/\s+/).join(' ') : '',
    leaverRule: values.leaverRule,
    enabled,
  };
}

/** The same job with 停用 / 启用 applied (the job's PUT takes the whole job). */
export function toggledJobBody(job: SyncJob): SyncJobInput {
  return {
    sourceId: job.sourceId,
    name: job.name,
    mapping: job.mapping,
    cron: job.cron,
    leaverRule: job.leaverRule,
    enabled: !job.enabled,
  };
}

export function jobNameProblem(value: string): string | undefined {
  const name = value.trim();
  if (!name) return SyncMessage.jobNameRequired;
  if ([...name].length > SYNC_JOB_NAME_MAX) return SyncMessage.jobNameTooLong;
  return undefined;
}

const PREFIX_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${SYNC_USERNAME_PREFIX_MAX - 1}}$`);

/** 用户名前缀 is optional; when given, a letter then letters, digits or underscores (SyncMessage.prefixInvalid). */
export function prefixProblem(value: string): string | undefined {
  const prefix = value.trim();
  return prefix && !PREFIX_PATTERN.test(prefix) ? SyncMessage.prefixInvalid : undefined;
}

/** The shared messages that name one field: a server refusal with one of them shows under it. */
const FIELD_OF_MESSAGE = new Map<string, SyncJobFormField>([
  [SyncMessage.jobNameRequired, 'name'],
  [SyncMessage.jobNameTooLong, 'name'],
  [SyncMessage.jobNameTaken, 'name'],
  [SyncMessage.cronInvalid, 'cron'],
  [SyncMessage.prefixInvalid, 'usernamePrefix'],
  [SyncMessage.sourceDisabled, 'sourceId'],
]);

export const fieldOfMessage = (message: string): SyncJobFormField | undefined => FIELD_OF_MESSAGE.get(message);
