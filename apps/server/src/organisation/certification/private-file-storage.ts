import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Certification materials on disk under PRIVATE_FILES_DIR (never served as static files). */
    privateFileStorage: PrivateFileStorage;
  }
}

/** `yyyy/mm/<uuid>.<ext>`: the only keys this storage writes or reads. */
const STORAGE_KEY = /^\d{4}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:jpg|png|pdf)$/;

/**
 * Private files (certification materials) under one root directory. Keys are generated
 * here, so a stored file never takes its name, or its place, from the uploader.
 */
export class PrivateFileStorage {
  constructor(private readonly root: string) {}

  private pathOf(storageKey: string): string {
    if (!STORAGE_KEY.test(storageKey)) throw new Error(`not a private file key: ${storageKey}`);
    return path.join(this.root, storageKey);
  }

  /**
   * Writes `bytes` under a new key and hands the key to `record` (the database row and its audit row);
   * when `record` fails, the file is removed again, so no file outlives a write that did not commit.
   */
  async store<T>(bytes: Buffer, ext: 'jpg' | 'png' | 'pdf', record: (storageKey: string) => Promise<T>): Promise<T> {
    const now = new Date();
    const storageKey = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${ext}`;
    const file = this.pathOf(storageKey);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, bytes, { flag: 'wx', mode: 0o600 });
    try {
      return await record(storageKey);
    } catch (err) {
      await fs.promises.rm(file, { force: true });
      throw err;
    }
  }

  /** The file's bytes as a stream and its size, or undefined when it is not on disk (any more). */
  async open(storageKey: string): Promise<{ stream: Readable; size: number } | undefined> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(this.pathOf(storageKey), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }
}

export default fp(
  async (app) => {
    await fs.promises.mkdir(app.config.privateFilesDir, { recursive: true, mode: 0o700 });
    app.decorate('privateFileStorage', new PrivateFileStorage(app.config.privateFilesDir));
  },
  { name: 'private-file-storage' },
);
