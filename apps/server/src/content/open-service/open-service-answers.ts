import type { OpenServiceTool, OpenServiceToolAdmin } from '@portal/shared';
import { chinaTime } from '../../platform/lib/china-time.js';
import type { OpenServiceToolRow } from './open-service-repository.js';

/** The tools as the public and console routes answer them (the schemas: packages/shared, contracts/open-service.ts). */
export const toTool = (r: OpenServiceToolRow): OpenServiceTool => ({
  id: r.id,
  title: r.title,
  summary: r.summary,
  icon: r.icon,
  body: r.body,
  updatedAt: chinaTime(new Date(r.updated_at)),
});

export const toAdminTool = (r: OpenServiceToolRow): OpenServiceToolAdmin => ({ ...toTool(r), sort: r.sort, status: r.status });
