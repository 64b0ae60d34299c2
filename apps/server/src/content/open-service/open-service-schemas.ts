import {
  OPEN_SERVICE_BODY_MAX,
  OPEN_SERVICE_ICONS,
  OPEN_SERVICE_SORT_MAX,
  OPEN_SERVICE_SUMMARY_MAX,
  OPEN_SERVICE_TITLE_MAX,
  OPEN_SERVICE_TOOL_IDS,
  type OpenServiceTool,
  type OpenServiceToolAdmin,
} from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime } from '../../platform/lib/china-time.js';
import { literals } from '../../platform/lib/envelope.js';
import type { OpenServiceToolRow } from './open-service-repository.js';

/** The request and answer schemas of the open-service centre's routes, public and console. */

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
export const ToolCard = Type.Object(ToolCardFields);
export const Tool = Type.Object(ToolFields);
export const AdminTool = Type.Object({ ...ToolFields, sort: Type.Integer(), status: literals(['online', 'offline'] as const) });

export const ToolIdParams = Type.Object({ id: Type.String({ maxLength: 32, description: '工具编号 01–06' }) });

// Lengths here only bound the request; OpenServiceRules answer with their own messages.
export const ToolBody = Type.Object({
  title: Type.String({ maxLength: OPEN_SERVICE_TITLE_MAX * 4, description: `工具名称，最多 ${OPEN_SERVICE_TITLE_MAX} 个字符` }),
  summary: Type.String({ maxLength: OPEN_SERVICE_SUMMARY_MAX * 4, description: `卡片上的简介，最多 ${OPEN_SERVICE_SUMMARY_MAX} 个字符` }),
  body: Type.String({ maxLength: OPEN_SERVICE_BODY_MAX * 2, description: '工具介绍 HTML（写入时清洗）' }),
  icon: Type.String({ maxLength: 64, description: `图标名称：${OPEN_SERVICE_ICONS.join('、')}` }),
  sort: Type.Number({ description: `排序，0–${OPEN_SERVICE_SORT_MAX}，小的在前` }),
  status: Type.String({ maxLength: 16, description: 'online 上线，offline 下线' }),
});

export const toTool = (r: OpenServiceToolRow): OpenServiceTool => ({
  id: r.id,
  title: r.title,
  summary: r.summary,
  icon: r.icon,
  body: r.body,
  updatedAt: chinaTime(new Date(r.updated_at)),
});

export const toAdminTool = (r: OpenServiceToolRow): OpenServiceToolAdmin => ({ ...toTool(r), sort: r.sort, status: r.status });
