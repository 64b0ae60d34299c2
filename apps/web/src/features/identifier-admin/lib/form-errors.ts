import type { FormInstance } from 'antd';

/** After a refused `validateFields()`, brings the first field in error into view (long item lists hide it below the fold). */
export function scrollToFirstError(form: FormInstance, error: unknown): void {
  const first = (error as { errorFields?: { name: (string | number)[] }[] } | null)?.errorFields?.[0];
  if (first) form.scrollToField(first.name, { block: 'center', behavior: 'smooth' });
}
