import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { seedSite } from './site-seed.js';

/** Seeds the demo data each module owns; every step is idempotent, so it runs at every start. */
export async function seedDemoData(db: Kysely<Database>): Promise<string[]> {
  const now = new Date().toISOString();
  const seeded: string[] = [];
  if (await seedSite(db, now)) seeded.push('site');
  return seeded;
}
