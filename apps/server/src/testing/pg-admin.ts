import pg from 'pg';

/** Runs statements on the database of `url` with a client of its own, outside any app's pool. */
export async function adminQuery(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** The names of this run's schemas (templates and test schemas), so its teardown finds leftovers. */
export const runSchemaPrefixes = (tag: string) => [`tpl_${tag}_`, `t_${tag}_`];

export async function dropSchema(url: string, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
}
