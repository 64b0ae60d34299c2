import { Type } from 'typebox';
import {
  OPEN_SERVICE_BODY_MAX,
  OPEN_SERVICE_ICONS,
  OPEN_SERVICE_SORT_MAX,
  OPEN_SERVICE_SUMMARY_MAX,
  OPEN_SERVICE_TITLE_MAX,
  OPEN_SERVICE_TOOL_IDS,
} from '../open-service.js';
import { literals } from './envelope.js';

/** The request and answer bodies of the open-service centre, public and console: the source of the types in open-service.ts. */

const ToolCardFields = {
  id: literals(OPEN_SERVICE_TOOL_IDS),
  title: Type.String(),
  summary: Type.String(),
  icon: literals(OPEN_SERVICE_ICONS),
};
const ToolFields = {
  ...ToolCardFields,
  body: Type.String({ description: '工具介绍（已清洗的 HTML）：简介、核心能力、快速开始、开发文档' }),
  updatedAt: Type.String({ description: '最后修改时间 yyyy-MM-dd HH:mm:ss' }),
};
export const OpenServiceToolCardSchema = Type.Object(ToolCardFields);
export const OpenServiceToolSchema = Type.Object(ToolFields);
export const OpenServiceToolAdminSchema = Type.Object({
  ...ToolFields,
  sort: Type.Integer(),
  status: literals(['online', 'offline'] as const),
});

export const OpenServiceToolIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 32, description: '工具编号 01–06' }) });

// Lengths here only bound the request; OpenServiceRules answer with their own messages.
export const OpenServiceToolBodySchema = Type.Object({
  title: Type.String({ maxLength: OPEN_SERVICE_TITLE_MAX * 4, description: `工具名称，最多 ${OPEN_SERVICE_TITLE_MAX} 个字符` }),
  summary: Type.String({ maxLength: OPEN_SERVICE_SUMMARY_MAX * 4, description: `卡片上的简介，最多 ${OPEN_SERVICE_SUMMARY_MAX} 个字符` }),
  body: Type.String({ maxLength: OPEN_SERVICE_BODY_MAX * 2, description: '工具介绍 HTML（写入时清洗）' }),
  icon: Type.String({ maxLength: 64, description: `图标名称：${OPEN_SERVICE_ICONS.join('、')}` }),
  sort: Type.Number({ description: `排序，0–${OPEN_SERVICE_SORT_MAX}，小的在前` }),
  status: Type.String({ maxLength: 16, description: 'online 上线，offline 下线' }),
});

const ApiReferenceParameterSchema = Type.Object({
  name: Type.String(),
  in: literals(['path', 'query', 'header', 'body'] as const),
  required: Type.Boolean(),
  type: Type.String(),
  description: Type.String(),
});
export const ApiReferenceOperationSchema = Type.Object({
  method: literals(['GET', 'POST', 'PUT', 'DELETE'] as const),
  path: Type.String(),
  summary: Type.String(),
  description: Type.String(),
  parameters: Type.Array(ApiReferenceParameterSchema),
  curl: Type.String({ description: '可直接执行的 curl 请求' }),
  responseExample: Type.String({ description: '按响应结构生成的示例' }),
});
export const ApiReferenceGroupSchema = Type.Object({
  key: Type.String(),
  title: Type.String(),
  description: Type.String(),
  operations: Type.Array(ApiReferenceOperationSchema),
});
