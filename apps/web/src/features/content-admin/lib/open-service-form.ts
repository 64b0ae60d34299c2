import {
  OPEN_SERVICE_BODY_MAX,
  OPEN_SERVICE_SUMMARY_MAX,
  OPEN_SERVICE_TITLE_MAX,
  type OpenServiceIcon,
  type OpenServiceToolAdmin,
  type OpenServiceToolBody,
  type OpenServiceToolStatus,
} from '@portal/shared';

/** What the tool form holds. */
export interface OpenServiceToolFormValues {
  title: string;
  summary: string;
  icon: OpenServiceIcon;
  sort: number | null;
  status: OpenServiceToolStatus;
  body: string;
}

/** The order a tool may take (the centre shows the online tools by it, smallest first). */
export const OPEN_SERVICE_SORT_MIN = 0;
export const OPEN_SERVICE_SORT_MAX = 9999;

/** Chinese messages of the tool form (the server checks the same limits). */
export const OpenServiceFormMessage = {
  titleRequired: '请输入工具标题',
  titleTooLong: `工具标题最多${OPEN_SERVICE_TITLE_MAX}个字符`,
  summaryRequired: '请输入工具简介',
  summaryTooLong: `工具简介最多${OPEN_SERVICE_SUMMARY_MAX}个字符`,
  iconRequired: '请选择图标',
  sortRequired: '请输入排序',
  sortInvalid: `排序须为 ${OPEN_SERVICE_SORT_MIN}–${OPEN_SERVICE_SORT_MAX} 的整数`,
  bodyRequired: '请输入工具详情',
  bodyTooLong: `工具详情最多${OPEN_SERVICE_BODY_MAX}个字符`,
} as const;

/** A stored tool as the form's values. */
export function toToolForm(tool: OpenServiceToolAdmin): OpenServiceToolFormValues {
  const { title, summary, icon, sort, status, body } = tool;
  return { title, summary, icon, sort, status, body };
}

/** The form as the write API's body: texts trimmed. */
export function toToolBody(values: OpenServiceToolFormValues): OpenServiceToolBody {
  return {
    title: values.title.trim(),
    summary: values.summary.trim(),
    icon: values.icon,
    sort: values.sort ?? 0,
    status: values.status,
    body: values.body,
  };
}
