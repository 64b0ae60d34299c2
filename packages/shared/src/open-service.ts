/**
 * 开放服务 (issue 20): the open-service centre's six developer tools (spec section 9: fixed ids 01 to
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
export interface OpenServiceToolCard {
  id: OpenServiceToolId;
  title: string;
  summary: string;
  icon: OpenServiceIcon;
}

/** A tool's detail (`GET /web-api/portal/v1/open-service/tools/{id}`): the card and its sanitised HTML body. */
export interface OpenServiceTool extends OpenServiceToolCard {
  body: string;
  updatedAt: string;
}

/** A tool as the console's 开放服务 page lists and edits it (`/web-api/console/v1/open-service/tool…`). */
export interface OpenServiceToolAdmin extends OpenServiceTool {
  sort: number;
  status: OpenServiceToolStatus;
}

export interface OpenServiceToolBody {
  title: string;
  summary: string;
  body: string;
  icon: OpenServiceIcon;
  sort: number;
  status: OpenServiceToolStatus;
}

export const OPEN_SERVICE_TITLE_MAX = 32;
export const OPEN_SERVICE_SUMMARY_MAX = 200;
export const OPEN_SERVICE_BODY_MAX = 100_000;

/** An operation of the API reference (`GET /web-api/portal/v1/open-service/api-reference`), from the OpenAPI document. */
export interface ApiReferenceOperation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  description: string;
  parameters: { name: string; in: 'path' | 'query' | 'header' | 'body'; required: boolean; type: string; description: string }[];
  /** A request one can send as is (curl), and an example answer built from the response schema. */
  curl: string;
  responseExample: string;
}

export interface ApiReferenceGroup {
  key: string;
  title: string;
  description: string;
  operations: ApiReferenceOperation[];
}
