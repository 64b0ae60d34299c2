import type { CertificationStatus, EnterpriseStatus } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';

export interface TenantFilters {
  /** Part of the enterprise's name. */
  keyword: string;
  status: EnterpriseStatus | undefined;
  certificationStatus: CertificationStatus | undefined;
  page: number;
  limit: number;
}

export const INITIAL_TENANT_FILTERS: TenantFilters = {
  keyword: '',
  status: undefined,
  certificationStatus: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

export interface TenantListQuery {
  offset: number;
  limit: number;
  keyword?: string;
  status?: EnterpriseStatus;
  certificationStatus?: CertificationStatus;
}

/** One page of enterprises: offset = (page - 1) * limit (spec section 7), empty filters left out. */
export function tenantListQuery(filters: TenantFilters): TenantListQuery {
  const keyword = filters.keyword.trim();
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(keyword ? { keyword } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.certificationStatus ? { certificationStatus: filters.certificationStatus } : {}),
  };
}
