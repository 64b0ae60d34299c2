/** The discovery documents of RFC 7643 §5–7 (ServiceProviderConfig, ResourceTypes, Schemas) as this service supports them. */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SEARCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** Most resources one list answers (ServiceProviderConfig filter.maxResults); a larger count is lowered to it. */
export const SCIM_MAX_RESULTS = 200;

interface Attribute {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime' | 'integer';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: Attribute[];
  referenceTypes?: string[];
}

const attr = (name: string, description: string, more: Partial<Attribute> = {}): Attribute => ({
  name,
  type: 'string',
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...more,
});

const multi = (name: string, description: string, subAttributes: Attribute[]): Attribute =>
  attr(name, description, { type: 'complex', multiValued: true, subAttributes });

const typed = (description: string) => [
  attr('value', description),
  attr('type', '类型（work、home、mobile 等）'),
  attr('primary', '是否为首选', { type: 'boolean' }),
];

const USER_ATTRIBUTES: Attribute[] = [
  attr('userName', '账号：字母开头，3～32 位字母、数字或下划线', { required: true, uniqueness: 'server' }),
  attr('name', '姓名', {
    type: 'complex',
    subAttributes: [attr('formatted', '完整姓名'), attr('familyName', '姓'), attr('givenName', '名')],
  }),
  attr('displayName', '显示名称（即姓名）'),
  attr('active', '是否启用；设为 false 即停用账号并结束其全部会话', { type: 'boolean' }),
  multi('emails', '邮箱（保存首选或 work 类型的一个）', typed('邮箱地址')),
  multi('phoneNumbers', '手机号（必填：中国大陆手机号，可带 +86）', typed('手机号')),
  multi('groups', '所属账号组（只读，请通过 Groups 修改成员）', [
    attr('value', '账号组 id', { mutability: 'readOnly' }),
    attr('$ref', '账号组地址', { type: 'reference', referenceTypes: ['Group'], mutability: 'readOnly' }),
    attr('display', '账号组名称', { mutability: 'readOnly' }),
  ]),
].map((a) => (a.name === 'groups' ? { ...a, mutability: 'readOnly' as const } : a));

const ENTERPRISE_ATTRIBUTES: Attribute[] = [
  attr('employeeNumber', '工号'),
  attr('department', '部门'),
  attr('manager', '直属上级', {
    type: 'complex',
    subAttributes: [
      attr('value', '上级的用户 id'),
      attr('$ref', '上级的地址', { type: 'reference', referenceTypes: ['User'], mutability: 'readOnly' }),
      attr('displayName', '上级姓名', { mutability: 'readOnly' }),
    ],
  }),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  attr('displayName', '账号组名称（企业内唯一）', { required: true, uniqueness: 'server' }),
  multi('members', '成员（用户）', [
    attr('value', '用户 id', { mutability: 'immutable' }),
    attr('$ref', '用户地址', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
    attr('display', '用户姓名', { mutability: 'readOnly' }),
    attr('type', '成员类型（仅支持 User）', { mutability: 'immutable' }),
  ]),
];

const schemaOf = (id: string, name: string, description: string, attributes: Attribute[], base: string) => ({
  schemas: [SCHEMA_SCHEMA],
  id,
  name,
  description,
  attributes,
  meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` },
});

export function schemaDocuments(base: string) {
  return [
    schemaOf(USER_SCHEMA, 'User', '账号', USER_ATTRIBUTES, base),
    schemaOf(ENTERPRISE_USER_SCHEMA, 'EnterpriseUser', '企业用户扩展', ENTERPRISE_ATTRIBUTES, base),
    schemaOf(GROUP_SCHEMA, 'Group', '账号组', GROUP_ATTRIBUTES, base),
  ];
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: '账号',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: '账号组',
      schema: GROUP_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export function serviceProviderConfig(base: string, documentationUri: string) {
  return {
    schemas: [CONFIG_SCHEMA],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer 令牌',
        description: '在控制台“认证源 → SCIM 同步”中创建的访问令牌，以 Authorization: Bearer 发送',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}
