import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../platform/config.js';
import { createPortalServer } from '../server.js';

// `node dist/cli/bench-import.js [rows]` (npm run bench): streams a generated CSV of `rows` machinery
// identifiers (default 100 000) over HTTP into the import endpoint of a server on the configured
// database, as the demo administrator, and prints one JSON line: seconds, the import summary's counts
// and the process's peak memory. Every row is valid, so every row is written.
const rows = Number(process.argv[2] ?? 100_000);

const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
const server = await createPortalServer(config, { logger: false });
const { app } = server;
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const account = await app.database.db.selectFrom('account').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  const session = await app.portalSessionService.fromCookie(
    await app.portalSessionService.open(account.id, `ST-bench-import-${Date.now()}`),
  );
  if (!session) throw new Error('session did not open');
  const token = `Bearer ${app.accessTokenService.issue(session.key, account.id)}`;
  const template = await app.database.db
    .selectFrom('idf_template')
    .select('id')
    .where('name', '=', '工程机械整机')
    .orderBy('id')
    .executeTakeFirstOrThrow();

  const boundary = '----bench-import';
  const body = async function* () {
    yield `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    yield '\uFEFF标识后缀,产品名称,产品型号,出厂编号,生产日期,生产厂家,生产工厂,主要参数,质保期,售后电话\r\n';
    for (let from = 0; from < rows; from += 1000) {
      let chunk = '';
      for (let i = from; i < Math.min(from + 1000, rows); i++) {
        const n = String(i + 1).padStart(7, '0');
        chunk += `IMP-${n},轮式装载机,HY-L50,HYL5025${n},2025-0${(i % 9) + 1}-1${i % 10},徐州恒岳重工机械有限公司,徐州铜山区恒岳重工装载机事业部,"额定载重量 5 t, 标准斗容 3.0 m³",36个月或5000小时,0516-87886000\r\n`;
      }
      yield chunk;
    }
    yield `\r\n--${boundary}--\r\n`;
  };

  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = Date.now();
  // node:http with pipeline honours backpressure, so the client holds no more of the file than the server takes.
  const answer = await new Promise<{ code: number; msg: string; data?: { total: number; imported: number; failed: number }[] }>(
    (resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: address.port,
          method: 'POST',
          path: `/web-api/identity/v1/record/import?templateId=${template.id}`,
          headers: {
            authorization: token,
            'x-requested-with': 'XMLHttpRequest',
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(JSON.parse(text)));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      pipeline(Readable.from(body()), request).catch(reject);
    },
  );
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  if (answer.code !== 20200 || !answer.data?.[0]) throw new Error(`import failed: ${answer.msg}`);
  const { total, imported, failed } = answer.data[0];
  console.log(
    JSON.stringify({ rows, seconds, total, imported, failed, peakRssMiB: +(peak / 1048576).toFixed(1), database: server.database.dialect }),
  );
} finally {
  await server.stop();
}
