import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config.js';
import { createPortalServer } from '../server.js';

describe('server lifecycle', () => {
  it('creates the SQLite file on first start, and a stop lets in-flight requests finish before the database closes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-life-'));
    const sqliteFile = path.join(dir, 'nested', 'portal.sqlite');
    const server = await createPortalServer(loadConfig({ SQLITE_FILE: sqliteFile, WEB_DIST: dir, LOG_LEVEL: 'silent' }), { logger: false });
    expect(fs.existsSync(sqliteFile)).toBe(true);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    server.app.get('/slow', async () => {
      started();
      await gate;
      const row = await sql<{ v: number }>`select 1 as v`.execute(server.database.db);
      return { v: row.rows[0]?.v };
    });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const inFlight = fetch(`http://127.0.0.1:${address.port}/slow`);
    await requestStarted;
    const stopping = server.stop();
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ v: 1 });
    await stopping;
    await expect(sql`select 1`.execute(server.database.db)).rejects.toThrow();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
