import {
  type ReleasableAttribute,
  type SsoApplicationBody,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  SsoAppMessage,
  SsoAppRules,
  type SsoProtocol,
} from '@portal/shared';

/** The 新增 / 编辑 form of an application. */
export interface SsoAppFormValues {
  name: string;
  icon: string;
  category: string;
  description: string;
  protocol: SsoProtocol;
  servicePrefixes: string[];
  logoutUrl: string;
  attributes: ReleasableAttribute[];
  status: SsoApplicationStatus;
}

export type SsoAppFormField = keyof SsoAppFormValues;

/** A new application: one empty address to fill, the user's name released, enabled. */
export function newSsoAppForm(): SsoAppFormValues {
  return {
    name: '',
    icon: '',
    category: '',
    description: '',
    protocol: 'cas3',
    servicePrefixes: [''],
    logoutUrl: '',
    attributes: ['name'],
    status: 'enabled',
  };
}

export function editSsoAppForm(row: SsoApplicationRow): SsoAppFormValues {
  return {
    name: row.name,
    icon: row.icon,
    category: row.category,
    description: row.description,
    protocol: row.protocol,
    servicePrefixes: row.servicePrefixes.length > 0 ? [...row.servicePrefixes] : [''],
    logoutUrl: row.logoutUrl,
    attributes: [...row.attributes],
    status: row.status,
  };
}

const trimmed = (value: string | undefined) => (value ?? '').trim();

/** The body of 新增 and 编辑: every field sent (an emptied one is sent empty, so the server clears it). */
export function ssoAppBody(values: SsoAppFormValues): SsoApplicationBody {
  return {
    name: trimmed(values.name),
    icon: values.icon ?? '',
    category: trimmed(values.category),
    description: trimmed(values.description),
    protocol: values.protocol,
    servicePrefixes: values.servicePrefixes.map((p) => p.trim()),
    logoutUrl: trimmed(values.logoutUrl),
    attributes: values.attributes,
    status: values.status,
  };
}

/** The shared messages that name one plain field: a server refusal with one of them shows under it. */
const FIELD_OF_MESSAGE = new Map<string, SsoAppFormField>([
  [SsoAppMessage.nameRequired, 'name'],
  [SsoAppMessage.nameTooLong, 'name'],
  [SsoAppMessage.nameTaken, 'name'],
  [SsoAppMessage.categoryTooLong, 'category'],
  [SsoAppMessage.descriptionTooLong, 'description'],
  [SsoAppMessage.logoutUrlInvalid, 'logoutUrl'],
  [SsoAppMessage.logoutUrlHttps, 'logoutUrl'],
]);

export const fieldOfMessage = (message: string): SsoAppFormField | undefined => FIELD_OF_MESSAGE.get(message);

/**
 * The 服务地址 list as a whole: one at least, MAX_SERVICE_PREFIXES at most, none twice (by the shared
 * rule); each address's own problem shows under that address instead.
 */
export function servicePrefixListProblem(values: readonly string[]): string | undefined {
  const each = values.map((v) => SsoAppRules.servicePrefix(v));
  if (values.length > 0 && each.some(Boolean)) return undefined;
  return SsoAppRules.servicePrefixes(values);
}
