/**
 * One value kept in memory for `ttlMs`. For data read on every page and edited rarely (header,
 * footer): other instances see an edit within the TTL, this one at once via `invalidate()`.
 * Concurrent misses share one load.
 */
export function ttlCache<T>(ttlMs: number, load: () => Promise<T>, now: () => number = Date.now) {
  let value: { data: T; until: number } | undefined;
  let loading: Promise<T> | undefined;
  // A load that started before an invalidate may have read the old data: it must not be kept.
  let generation = 0;
  return {
    get(): Promise<T> {
      if (value && value.until > now()) return Promise.resolve(value.data);
      if (loading) return loading;
      const started = generation;
      const current = load()
        .then((data) => {
          if (started === generation) value = { data, until: now() + ttlMs };
          return data;
        })
        .finally(() => {
          if (loading === current) loading = undefined;
        });
      loading = current;
      return current;
    },
    invalidate(): void {
      generation += 1;
      value = undefined;
      loading = undefined;
    },
  };
}
