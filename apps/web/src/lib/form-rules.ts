import type { FormRule } from 'antd';

/** Surrounding spaces dropped (a pasted value often carries them). */
export const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * An antd form rule running one of the shared field rules (`TenantRules.*` of @portal/shared): the
 * console checks with the very function and message the server uses. Passwords pass `trim = false`.
 */
export function tenantRule(check: (value: string) => string | undefined, trim = true): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      const message = check(trim ? trimmed(value) : typeof value === 'string' ? value : '');
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  };
}
