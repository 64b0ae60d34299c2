/**
 * The query keys of 同步. Jobs and runs show each other's facts (a job's 最近结果, a run's 任务), so a
 * write invalidates `all`. An executed run also changes 认证源's 最近同步, under `authSources`.
 */
export const syncKeys = {
  all: ['directory-sync'] as const,
  jobs: ['directory-sync', 'jobs'] as const,
  runs: {
    all: ['directory-sync', 'runs'] as const,
    page: (query: object) => ['directory-sync', 'runs', 'page', query] as const,
    detail: (id: number) => ['directory-sync', 'runs', 'detail', id] as const,
    items: (id: number, query: object) => ['directory-sync', 'runs', 'items', id, query] as const,
  },
  /** The enterprise's sources the job form offers (the 认证源 page's resource). */
  authSources: ['auth-sources'] as const,
  sourceOptions: ['auth-sources', 'sync-options'] as const,
};
