import type { OpenServiceIcon, OpenServiceToolAdmin, OpenServiceToolBody, OpenServiceToolStatus } from '@portal/shared';

/** What the tool form holds (排序 is empty while the field is cleared). */
export interface OpenServiceToolFormValues {
  title: string;
  summary: string;
  icon: OpenServiceIcon;
  sort: number | null;
  status: OpenServiceToolStatus;
  body: string;
}

/** A stored tool as the form's values. */
export function toToolForm(tool: OpenServiceToolAdmin): OpenServiceToolFormValues {
  const { title, summary, icon, sort, status, body } = tool;
  return { title, summary, icon, sort, status, body };
}

/** The form as the write API's body (validated first, so 排序 is set): texts trimmed. */
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
