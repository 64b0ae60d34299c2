/** Errors of either database engine, recognised by their codes (better-sqlite3 and PostgreSQL). */
interface DriverError {
  code?: unknown;
  message?: unknown;
}

/** A unique constraint refused the write: a concurrent write won the race (PostgreSQL 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const { code, message } = (err ?? {}) as DriverError;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    (typeof message === 'string' && message.includes('UNIQUE constraint failed'))
  );
}

/** A foreign key refused the write: a row came to depend on it meanwhile (PostgreSQL 23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  const { code } = (err ?? {}) as DriverError;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * PostgreSQL broke the transaction off to let another go on: a deadlock victim (40P01) or a
 * serialization failure (40001). It was rolled back whole and may simply run again.
 */
export function isRetryableConflict(err: unknown): boolean {
  const { code } = (err ?? {}) as DriverError;
  return code === '40P01' || code === '40001';
}
