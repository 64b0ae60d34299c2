import fs from 'node:fs';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { CHAIN_BREAK_TEXT, type ChainBreak, type ChainLog } from '../platform/audit/audit-chain.js';
import { AuditChainService, ChainFileError, type ChainPeriod, verifyChainLines } from '../platform/audit/audit-chain-service.js';
import { loadConfig } from '../platform/config.js';
import { createDatabase } from '../platform/db/database.js';
import { chinaTimeToIso } from '../platform/lib/china-time.js';
import { BadRequestError } from '../platform/lib/errors.js';

// `npm run audit:verify` (README, "Tamper-evident audit"):
//   -- --file F [F…]                                  verifies exported or archived files on their own
//   -- --enterprise ID|platform [--log login|audit] [--from T] [--to T] [--out F]
//                                                     verifies the chain in the database over the period
//                                                     (T: yyyy-MM-dd HH:mm:ss China time, or ISO), and with
//                                                     --out exports it (gzip JSON lines with the anchors of its ends)
// Exit status 0: intact; 1: a break (named); 2: bad arguments or a file that is no export/archive; 3: another error.
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    file: { type: 'string', multiple: true },
    enterprise: { type: 'string' },
    log: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    out: { type: 'string' },
  },
});

const describeBreak = (p: ChainBreak) =>
  `${CHAIN_BREAK_TEXT[p.kind]}: ${p.reason}${p.rowId === null ? '' : `（记录 id ${p.rowId}${p.seq === null ? '' : `，序号 ${p.seq}`}）`}`;

function instant(text: string | undefined, label: string, end = false): string | undefined {
  if (!text) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) throw new UsageError(`${label} is no valid time: ${text}`);
    return date.toISOString();
  }
  const iso = chinaTimeToIso(text, label);
  return end ? iso.replace('.000Z', '.999Z') : iso;
}

function fileLines(file: string): AsyncIterable<string> {
  const input = fs.createReadStream(file);
  return readline.createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
}

async function verifyFiles(files: string[]): Promise<boolean> {
  let intact = true;
  for (const file of files) {
    // A file that cannot be read is bad input (status 2), not a break.
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch {
      throw new UsageError(`${file}: 文件不存在或无法读取`);
    }
    let result: Awaited<ReturnType<typeof verifyChainLines>>;
    try {
      result = await verifyChainLines(fileLines(file));
    } catch (err) {
      if (err instanceof ChainFileError) throw new UsageError(`${file}: ${err.message}`);
      throw new UsageError(`${file}: 无法读取（${err instanceof Error ? err.message : String(err)}）`);
    }
    const who = result.enterpriseId === null ? 'platform' : `enterprise ${result.enterpriseId}`;
    if (result.intact) {
      console.log(
        `${file}: 完整 (${result.log} log, ${who}, ${result.rows} rows, seq ${result.anchor?.seq ?? 0}→${result.end?.seq ?? 0}, anchor ${result.anchor?.hash ?? ''}, end ${result.end?.hash ?? ''})`,
      );
    } else {
      intact = false;
      console.log(`${file}: ${result.problem ? describeBreak(result.problem) : '无法校验'}`);
    }
  }
  return intact;
}

async function verifyDatabase(): Promise<boolean> {
  const enterprise = values.enterprise === 'platform' ? 0 : /^\d+$/.test(values.enterprise ?? '') ? Number(values.enterprise) : NaN;
  if (!Number.isInteger(enterprise) || (values.enterprise !== 'platform' && enterprise <= 0))
    throw new UsageError('--enterprise takes an enterprise id or "platform"');
  const logs: ChainLog[] = values.log ? [values.log as ChainLog] : ['login', 'audit'];
  if (logs.some((l) => l !== 'login' && l !== 'audit')) throw new UsageError('--log takes login or audit');
  if (values.out && logs.length !== 1) throw new UsageError('--out exports one log: name it with --log');
  const period: ChainPeriod = { from: instant(values.from, '开始时间'), to: instant(values.to, '结束时间', true) };
  const config = loadConfig();
  const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  try {
    const service = new AuditChainService(database.db);
    let intact = true;
    for (const log of logs) {
      const result = await service.verify(log, enterprise, period);
      const range = `${result.checked} rows, seq ${result.firstSeq ?? '-'}→${result.lastSeq ?? '-'}, start ${result.startHash ?? '-'}, end ${result.endHash ?? '-'}`;
      console.log(`${log} log: ${result.problem ? describeBreak(result.problem) : '完整'} (${range})`);
      intact &&= result.intact;
      if (values.out) {
        const lines = Readable.from(
          (async function* () {
            for await (const line of service.exportRange(log, enterprise, period)) yield `${JSON.stringify(line)}\n`;
          })(),
        );
        await pipeline(lines, createGzip(), fs.createWriteStream(values.out));
        console.log(`exported: ${values.out}`);
      }
    }
    return intact;
  } finally {
    await database.destroy();
  }
}

class UsageError extends Error {}

try {
  const files = [...(values.file ?? []), ...positionals];
  if (files.length === 0 && values.enterprise === undefined) throw new UsageError('name --file F or --enterprise ID|platform');
  process.exitCode = (files.length > 0 ? await verifyFiles(files) : await verifyDatabase()) ? 0 : 1;
} catch (err) {
  if (err instanceof UsageError || err instanceof BadRequestError) {
    console.error(`audit:verify: ${err.message}`);
    process.exitCode = 2;
  } else {
    // The database cannot be reached, or the like: one line, no stack trace.
    console.error(`audit:verify: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 3;
  }
}
