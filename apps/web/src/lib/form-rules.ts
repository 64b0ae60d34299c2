import type { FormRule } from 'antd';

/**
 * An antd form rule from a shared field rule (`TenantRules.*` of @portal/shared): the console checks
 * with the very function and message the server uses, on the trimmed text.
 */
export function sharedRule(check: (value: string) => string | undefined): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      const message = check(typeof value === 'string' ? value.trim() : '');
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  };
}
