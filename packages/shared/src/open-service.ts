import type { Static } from 'typebox';
import type {
  ApiReferenceGroupSchema,
  ApiReferenceOperationSchema,
  OpenServiceToolAdminSchema,
  OpenServiceToolBodySchema,
  OpenServiceToolCardSchema,
  OpenServiceToolSchema,
} from './contracts/open-service.js';
import { textLength } from './identifier-rules.js';

/**
 * 开放服务: the open-service centre's six developer tools (spec section 9: fixed ids 01 to
 * 06) and the developers' API reference. Shapes of the public and console calls and the rules both
 * sides check.
 */

export const OPEN_SERVICE_TOOL_IDS = ['01', '02', '03', '04', '05', '06'] as const;
export type OpenServiceToolId = (typeof OPEN_SERVICE_TOOL_IDS)[number];
export const isOpenServiceToolId = (id: string): id is OpenServiceToolId => (OPEN_SERVICE_TOOL_IDS as readonly string[]).includes(id);

/** The tool whose detail is live for an enterprise administrator (统一身份认证集成). */
export const IDENTITY_TOOL_ID: OpenServiceToolId = '03';

export type OpenServiceToolStatus = 'online' | 'offline';
export const OPEN_SERVICE_STATUS_LABELS: Record<OpenServiceToolStatus, string> = { online: '上线', offline: '下线' };

/** Icon names a tool may show (the web maps each to its icon). */
export const OPEN_SERVICE_ICONS = [
  'mobile',
  'control',
  'safety-certificate',
  'deployment-unit',
  'cluster',
  'experiment',
  'api',
  'appstore',
] as const;
export type OpenServiceIcon = (typeof OPEN_SERVICE_ICONS)[number];

/** A card of the centre (`GET /web-api/portal/v1/open-service/tools`): online tools in order. */
export type OpenServiceToolCard = Static<typeof OpenServiceToolCardSchema>;

/** A tool's detail (`GET /web-api/portal/v1/open-service/tools/{id}`): the card and its sanitised HTML body. */
export type OpenServiceTool = Static<typeof OpenServiceToolSchema>;

/** A tool as the console's 开放服务 page lists and edits it (`/web-api/console/v1/open-service/tool…`). */
export type OpenServiceToolAdmin = Static<typeof OpenServiceToolAdminSchema>;

export type OpenServiceToolBody = Static<typeof OpenServiceToolBodySchema>;

export const OPEN_SERVICE_TITLE_MAX = 32;
export const OPEN_SERVICE_SUMMARY_MAX = 200;
export const OPEN_SERVICE_BODY_MAX = 100_000;
/** 排序: the centre shows the online tools by ascending sort, then by id. */
export const OPEN_SERVICE_SORT_MAX = 999;

export const isOpenServiceIcon = (icon: string): icon is OpenServiceIcon => (OPEN_SERVICE_ICONS as readonly string[]).includes(icon);
export const isOpenServiceToolStatus = (status: string): status is OpenServiceToolStatus => status === 'online' || status === 'offline';

export const OpenServiceMessage = {
  /** A public detail of an id that is not one of the six, or of a tool taken offline. */
  notFound: '工具不存在或已下线',
  /** The console's write of an id that is not one of the six. */
  adminNotFound: '工具不存在',
  titleRequired: '请输入工具名称',
  titleTooLong: `工具名称最多${OPEN_SERVICE_TITLE_MAX}个字符`,
  titleTaken: '已有同名的工具',
  summaryRequired: '请输入工具简介',
  summaryTooLong: `工具简介最多${OPEN_SERVICE_SUMMARY_MAX}个字符`,
  /** Also when nothing is left after sanitising (a body of scripts only). */
  bodyRequired: '请输入工具介绍',
  bodyTooLong: `工具介绍最多${OPEN_SERVICE_BODY_MAX}个字符`,
  iconInvalid: '请从图标列表中选择图标',
  sortInvalid: `排序须为 0 到 ${OPEN_SERVICE_SORT_MAX} 之间的整数`,
  statusInvalid: '状态须为上线或下线',
  saved: '已保存',
  /** API_DOCS=off: the deployment publishes no API documentation, the centre's reference included. */
  referenceOff: '接口参考未开放',
} as const;

/**
 * One rule per field of a tool (the console's 开放服务 form runs each under its field, the server all
 * of them on every write): the message for a bad value, or undefined. The body is also checked after
 * the server's sanitiser (nothing left: bodyRequired).
 */
export const OpenServiceRules = {
  title(value: string): string | undefined {
    if (!value.trim()) return OpenServiceMessage.titleRequired;
    return textLength(value.trim()) > OPEN_SERVICE_TITLE_MAX ? OpenServiceMessage.titleTooLong : undefined;
  },
  summary(value: string): string | undefined {
    if (!value.trim()) return OpenServiceMessage.summaryRequired;
    return textLength(value.trim()) > OPEN_SERVICE_SUMMARY_MAX ? OpenServiceMessage.summaryTooLong : undefined;
  },
  body(value: string): string | undefined {
    if (!value.trim()) return OpenServiceMessage.bodyRequired;
    return textLength(value) > OPEN_SERVICE_BODY_MAX ? OpenServiceMessage.bodyTooLong : undefined;
  },
  icon: (value: string): string | undefined => (isOpenServiceIcon(value) ? undefined : OpenServiceMessage.iconInvalid),
  sort: (value: number): string | undefined =>
    Number.isInteger(value) && value >= 0 && value <= OPEN_SERVICE_SORT_MAX ? undefined : OpenServiceMessage.sortInvalid,
  status: (value: string): string | undefined => (isOpenServiceToolStatus(value) ? undefined : OpenServiceMessage.statusInvalid),
} as const;

/** An operation of the API reference (`GET /web-api/portal/v1/open-service/api-reference`), from the OpenAPI document. */
export type ApiReferenceOperation = Static<typeof ApiReferenceOperationSchema>;

export type ApiReferenceGroup = Static<typeof ApiReferenceGroupSchema>;
