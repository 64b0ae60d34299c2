import {
  type ReleasableAttribute,
  type SsoApplicationBody,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  SsoMessage,
  SsoRules,
  normalizeServicePrefix,
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
  [SsoMessage.nameRequired, 'name'],
  [SsoMessage.nameTooLong, 'name'],
  [SsoMessage.nameTaken, 'name'],
  [SsoMessage.categoryTooLong, 'category'],
  [SsoMessage.descriptionTooLong, 'description'],
  [SsoMessage.iconInvalid, 'icon'],
  [SsoMessage.logoutUrlInvalid, 'logoutUrl'],
  [SsoMessage.logoutUrlTooLong, 'logoutUrl'],
]);

export const fieldOfMessage = (message: string): SsoAppFormField | undefined => FIELD_OF_MESSAGE.get(message);

/** The same address twice adds nothing: the form asks for one of them to go (compared as stored). */
export const SERVICE_DUPLICATE_MESSAGE = '服务地址不能重复';

/**
 * The 服务地址 list as a whole: one at least and MAX_SERVICE_PREFIXES at most (the shared rule), none
 * twice; each address's own problem shows under that address instead.
 */
export function servicePrefixListProblem(values: readonly string[]): string | undefined {
  if (values.length > 0 && values.some((v) => SsoRules.servicePrefix(v))) return undefined;
  const problem = SsoRules.servicePrefixes(values);
  if (problem) return problem;
  return new Set(values.map(normalizeServicePrefix)).size < values.length ? SERVICE_DUPLICATE_MESSAGE : undefined;
}
