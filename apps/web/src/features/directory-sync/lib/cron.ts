import { CRON_MAX, SyncMessage } from '@portal/shared';

/** The schedules the job form fills in with one click (5-field cron, China time). */
export const CRON_PRESETS = [
  { label: '每天 02:00', cron: '0 2 * * *' },
  { label: '每小时', cron: '0 * * * *' },
  { label: '每周一 03:00', cron: '0 3 * * 1' },
] as const;

/** The form asks for an expression when 定时 is chosen. */
export const CRON_REQUIRED = '请输入定时表达式，如 0 2 * * *（每天 2:00）';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface CronField {
  min: number;
  max: number;
  /** Three-letter names standing for numbers (months from 1, weekdays from 0). */
  names?: readonly string[];
  nameBase?: number;
}

// Minute, hour, day of month, month, day of week (0 and 7 are Sunday), as standard cron reads them.
const FIELDS: readonly CronField[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { min: 0, max: 7, names: DAYS, nameBase: 0 },
];

function valueOf(text: string, field: CronField): number | undefined {
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  return index >= 0 ? index + (field.nameBase ?? 0) : undefined;
}

/** One comma-separated part: `*`, `n`, `a-b`, each optionally `/step`. */
function validPart(part: string, field: CronField): boolean {
  const [range = '', step, ...extra] = part.split('/');
  if (extra.length > 0) return false;
  if (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) > 0)) return false;
  if (range === '*') return true;
  const [from = '', to, ...more] = range.split('-');
  if (more.length > 0) return false;
  const a = valueOf(from, field);
  if (a === undefined || a < field.min || a > field.max) return false;
  if (to === undefined) return true;
  const b = valueOf(to, field);
  return b !== undefined && b >= a && b <= field.max;
}

/**
 * What is wrong with a schedule, checked before saving: five fields (minute, hour, day, month,
 * weekday) of numbers, ranges, lists and steps. The server checks it again and has the last word.
 */
export function cronProblem(expression: string): string | undefined {
  const text = expression.trim();
  if (!text) return CRON_REQUIRED;
  const fields = text.split(/\s+/);
  if (text.length > CRON_MAX || fields.length !== FIELDS.length) return SyncMessage.cronInvalid;
  const valid = fields.every((value, i) => value.split(',').every((part) => validPart(part, FIELDS[i]!)));
  return valid ? undefined : SyncMessage.cronInvalid;
}

const WEEKDAY_NAMES = ['日', '一', '二', '三', '四', '五', '六', '日'];
const pad = (n: number) => String(n).padStart(2, '0');
const isNumber = (text: string) => /^\d{1,2}$/.test(text);

/**
 * A schedule in words when it is a common one (每天 02:00, 每周一 03:00, 每小时, 每 15 分钟…), else
 * undefined and the expression itself is shown.
 */
export function describeCron(expression: string): string | undefined {
  if (cronProblem(expression)) return undefined;
  const [minute = '', hour = '', day = '', month = '', weekday = ''] = expression.trim().split(/\s+/);
  const everyDay = day === '*' && month === '*';
  if (isNumber(minute) && isNumber(hour)) {
    const time = `${pad(Number(hour))}:${pad(Number(minute))}`;
    if (everyDay && weekday === '*') return `每天 ${time}`;
    if (everyDay && isNumber(weekday)) return `每周${WEEKDAY_NAMES[Number(weekday)]} ${time}`;
    if (everyDay && weekday === '1-5') return `工作日（周一至周五）${time}`;
    if (isNumber(day) && month === '*' && weekday === '*') return `每月 ${Number(day)} 日 ${time}`;
    return undefined;
  }
  if (!everyDay || weekday !== '*') return undefined;
  if (isNumber(minute) && hour === '*') return Number(minute) === 0 ? '每小时' : `每小时第 ${Number(minute)} 分钟`;
  const hours = /^\*\/(\d+)$/.exec(hour);
  if (isNumber(minute) && hours) return `每 ${hours[1]} 小时${Number(minute) === 0 ? '' : `（第 ${Number(minute)} 分钟）`}`;
  const minutes = /^\*\/(\d+)$/.exec(minute);
  if (minutes && hour === '*') return `每 ${minutes[1]} 分钟`;
  return undefined;
}

/** How the job table shows a schedule: 手动 without one, words when simple, else the expression. */
export function scheduleText(cron: string): string {
  if (!cron.trim()) return '手动';
  return describeCron(cron) ?? cron;
}
