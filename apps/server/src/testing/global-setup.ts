import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { adminQuery, dropSchema, runSchemaPrefixes } from './pg-admin.js';

/**
 * The server project's globalSetup: a directory and a tag for this run's templates
 * (testing/test-templates.ts); at the end, the templates and any test schema a crashed file left
 * behind are removed.
 */
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-templates-'));
  const tag = `r${randomBytes(4).toString('hex')}`;
  project.provide('portalTestTemplates', { dir, tag });
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const left = await adminQuery(
      url,
      'SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) OR starts_with(nspname, $2)',
      runSchemaPrefixes(tag),
    );
    for (const { nspname } of left.rows as { nspname: string }[]) await dropSchema(url, nspname);
  };
}
