/**
 * One value kept in memory for `ttlMs`. For data read on every page and edited rarely (header,
 * footer): other instances see an edit within the TTL, this one at once via `invalidate()`.
 * Concurrent misses share one load.
 */
export function ttlCache<T>(ttlMs: number, load: () => Promise<T>, now: () => number = Date.now) {
  let value: { data: T; until: number } | undefined;
  let loading: Promise<T> | undefined;
  return {
    get(): Promise<T> {
      if (value && value.until > now()) return Promise.resolve(value.data);
      loading ??= load()
        .then((data) => {
          value = { data, until: now() + ttlMs };
          return data;
        })
        .finally(() => {
          loading = undefined;
        });
      return loading;
    },
    invalidate(): void {
      value = undefined;
    },
  };
}
