#!/usr/bin/env node
// Draws the sample certification materials the demo seed stores as private files
// (apps/server/src/seed/certification-seed.ts): a 营业执照 per demo enterprise (PNG or JPG) and a
// 授权委托书 (PDF) per application made by an agent, from the facts in certification-data.ts, so what
// a reviewer sees matches the seeded profile. Every sheet is marked 样本 / SAMPLE: the enterprises,
// codes, people and seals are fictional. Chromium renders HTML: page.screenshot for the images,
// page.pdf for the letters. Run again after changing the facts or the layout; the output is committed:
//   npx tsx --conditions=source scripts/draw-certification-samples.mjs
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import QRCode from 'qrcode';
import { DEMO_ACCOUNTS } from '../apps/server/src/seed/accounts-seed.ts';
import { CERTIFICATION_ACCOUNTS, DEMO_CERTIFICATIONS } from '../apps/server/src/seed/certification-data.ts';

const out = path.resolve(import.meta.dirname, '../apps/server/assets/certification');
fs.mkdirSync(out, { recursive: true });
/** Samples stay small: they are committed and copied into every demo installation. */
const MAX_BYTES = 300 * 1024;

const accounts = new Map([...DEMO_ACCOUNTS, ...CERTIFICATION_ACCOUNTS].map((a) => [a.username, a]));
const escape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const SERIF = 'Noto Serif CJK SC';
const SANS = 'Noto Sans CJK SC';
const FONTS = `
  body { margin: 0; font-family: '${SERIF}', serif; color: #222; }
  .sans { font-family: '${SANS}', sans-serif; }
`;

/** A round red seal: a star, the owner's name on the rim, 样本 below the star. */
function seal(rim, size, font) {
  const r = size / 2;
  const star = Array.from({ length: 10 }, (_, i) => {
    const radius = i % 2 === 0 ? r * 0.3 : r * 0.12;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${(r + radius * Math.cos(angle)).toFixed(1)},${(r + radius * Math.sin(angle)).toFixed(1)}`;
  }).join(' ');
  return `<svg class="seal" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <defs><path id="rim-${size}" d="M ${r * 0.28} ${r * 1.2} A ${r * 0.74} ${r * 0.74} 0 1 1 ${r * 1.72} ${r * 1.2}"/></defs>
    <g fill="none" stroke="#d3222a" stroke-opacity=".82"><circle cx="${r}" cy="${r}" r="${r - 4}" stroke-width="4"/></g>
    <text font-size="${r * 0.2}" fill="#d3222a" fill-opacity=".85" letter-spacing="2" font-family="${font}"><textPath href="#rim-${size}" startOffset="50%" text-anchor="middle">${escape(rim)}</textPath></text>
    <polygon points="${star}" fill="#d3222a" fill-opacity=".85"/>
    <text x="${r}" y="${r * 1.55}" font-size="${r * 0.22}" fill="#d3222a" fill-opacity=".85" text-anchor="middle" font-family="${font}" letter-spacing="4">样本</text>
  </svg>`;
}

/** 样本 SAMPLE across the whole sheet. */
function watermark(width, height, font, weight) {
  const marks = [];
  for (let y = -40; y < height + 80; y += 170) {
    for (let x = -120 + ((y / 170) % 2) * 160; x < width + 80; x += 330) {
      marks.push(`<text x="${x}" y="${y}">样本 SAMPLE</text>`);
    }
  }
  return `<svg class="watermark" width="${width}" height="${height}"><g transform="rotate(-20 ${width / 2} ${height / 2})" fill="#c8102e" fill-opacity=".13" font-size="44" font-family="${font}" font-weight="${weight}" letter-spacing="6">${marks.join('')}</g></svg>`;
}

async function licenceHtml(c) {
  const qr = await QRCode.toString(`样本 SAMPLE（演示数据，非真实营业执照）${c.enterprise} ${c.creditCode}`, {
    type: 'svg',
    margin: 0,
    color: { dark: '#333333', light: '#00000000' },
  });
  const W = 1120;
  const H = 790;
  const field = (label, value) => `<div class="field"><span class="label">${label}</span><span class="value">${escape(value)}</span></div>`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>${FONTS}
    .sheet { position: relative; width: ${W}px; height: ${H}px; box-sizing: border-box; padding: 22px; background: #fbf6ea; }
    .frame { position: absolute; inset: 22px; border: 10px solid transparent; border-image: repeating-linear-gradient(45deg, #b0533c 0 3px, #e9c79a 3px 7px) 10; }
    .inner { position: absolute; inset: 40px; border: 2px solid #b0533c; padding: 28px 48px; }
    .top { display: flex; justify-content: space-between; font-size: 17px; }
    .code b { display: block; font-size: 22px; letter-spacing: 1px; margin-top: 4px; }
    h1 { text-align: center; margin: -6px 0 0; font-size: 60px; letter-spacing: 26px; color: #b3191e; font-weight: 700; }
    .copy { text-align: center; font-size: 20px; letter-spacing: 8px; margin-top: 2px; }
    .qr { position: absolute; right: 48px; top: 96px; width: 118px; text-align: center; font-size: 11px; line-height: 1.4; color: #555; }
    .qr svg { width: 96px; height: 96px; }
    .cols { display: grid; grid-template-columns: 1.1fr 1fr; gap: 0 44px; margin-top: 26px; font-size: 18px; }
    .field { display: flex; margin-bottom: 14px; line-height: 1.55; }
    .label { flex: 0 0 104px; text-align: justify; text-align-last: justify; margin-right: 16px; font-weight: 700; }
    .value { flex: 1; }
    .scope .value { font-size: 16px; line-height: 1.6; }
    .authority { position: absolute; right: 84px; bottom: 74px; text-align: center; font-size: 18px; line-height: 1.8; }
    .authority .seal { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -58%) rotate(-8deg); }
    .notice { position: absolute; left: 48px; bottom: 26px; font-size: 13px; color: #6b5a48; }
    .stamp { position: absolute; left: 96px; bottom: 132px; border: 4px solid #c8102e; color: #c8102e; font-size: 30px; font-weight: 700; padding: 2px 16px; letter-spacing: 6px; transform: rotate(-12deg); opacity: .8; font-family: '${SANS}'; }
    .watermark { position: absolute; left: 0; top: 0; pointer-events: none; }
  </style></head><body><div class="sheet">
    <div class="frame"></div>
    <div class="inner">
      <div class="top"><div class="code">统一社会信用代码<b>${c.creditCode}</b></div><div>证照编号：${c.licence.number}</div></div>
      <h1>营业执照</h1>
      <div class="copy">（副&#12288;本）</div>
      <div class="cols">
        <div>
          ${field('名称', c.enterprise)}
          ${field('类型', c.licence.type)}
          ${field('法定代表人', c.legalRepresentative)}
          <div class="scope">${field('经营范围', c.licence.scope)}</div>
        </div>
        <div>
          ${field('注册资本', c.licence.capital)}
          ${field('成立日期', c.licence.established)}
          ${field('营业期限', c.licence.term)}
          ${field('住所', c.address)}
        </div>
      </div>
      <div class="authority">${seal('演示样本专用章', 150, SANS)}<div>登记机关（样本）</div><div>${c.licence.issued}</div></div>
      <div class="notice sans">本执照为 Engineering e+ 平台演示样本，所载企业、代码、人员与印章均为虚构，不具有任何法律效力。</div>
    </div>
    <div class="qr sans">${qr}<div>样本二维码<br>（演示数据）</div></div>
    <div class="stamp">样本 SAMPLE</div>
    ${watermark(W, H, SANS, 700)}
  </div></body></html>`;
}

function authorizationHtml(c) {
  const agent = accounts.get(c.application.applicant);
  if (!agent) throw new Error(`no demo account ${c.application.applicant}`);
  const a = c.application.authorization;
  // One face, one weight: Chromium draws the collection's glyphs as Type 3 outlines, so each face adds
  // its own set to the file.
  return `<!doctype html><html><head><meta charset="utf-8"><style>${FONTS}
    * { font-weight: 400 !important; }
    @page { size: A4; margin: 0; }
    .page { position: relative; width: 210mm; height: 297mm; box-sizing: border-box; padding: 26mm 24mm; font-size: 14pt; line-height: 1.9; overflow: hidden; }
    h1 { text-align: center; font-size: 26pt; letter-spacing: 10pt; margin: 0 0 10mm; }
    p { margin: 0; text-indent: 2em; text-align: justify; }
    .to { text-indent: 0; margin-bottom: 4mm; }
    table { border-collapse: collapse; width: 100%; margin: 8mm 0; font-size: 13pt; line-height: 1.6; }
    td { border: 1px solid #555; padding: 2.5mm 4mm; }
    td:first-child { width: 42mm; text-align: center; background: #f4f4f4; }
    .sign { position: relative; margin-top: 12mm; margin-left: 56mm; line-height: 2.3; }
    .sign .seal { position: absolute; left: 44mm; top: -12mm; transform: rotate(-10deg); }
    .signature { font-style: italic; font-size: 17pt; letter-spacing: 2pt; }
    .notice { position: absolute; left: 24mm; right: 24mm; bottom: 16mm; font-size: 9pt; line-height: 1.5; color: #666; }
    .stamp { position: absolute; right: 22mm; top: 16mm; border: 3px solid #c8102e; color: #c8102e; font-size: 16pt; padding: 0 8pt; letter-spacing: 4pt; transform: rotate(8deg); }
    .watermark { position: absolute; left: 0; top: 0; }
  </style></head><body><div class="page">
    ${watermark(794, 1123, SERIF, 400)}
    <div class="stamp">样本 SAMPLE</div>
    <h1>授权委托书</h1>
    <p class="to">致：Engineering e+ 工业互联网平台</p>
    <p>兹授权我单位员工 <b>${escape(agent.name)}</b>（身份证号码：${a.agentIdNumber}，联系电话：${agent.phone}）作为我单位经办人，代表我单位在 Engineering e+ 平台办理企业认证相关事宜，包括提交和补正认证材料、确认企业信息、接收审核结果。</p>
    <p>经办人在上述授权范围内办理的事项及签署的文件，我单位均予以认可，并承担相应的法律责任。经办人无转委托权。</p>
    <p>授权期限：自签署之日起一年。</p>
    <table>
      <tr><td>委托单位</td><td>${escape(c.enterprise)}</td></tr>
      <tr><td>统一社会信用代码</td><td>${c.creditCode}</td></tr>
      <tr><td>法定代表人</td><td>${escape(c.legalRepresentative)}</td></tr>
      <tr><td>经办人</td><td>${escape(agent.name)}&#12288;${agent.phone}</td></tr>
    </table>
    <div class="sign">
      ${seal(c.enterprise.length > 12 ? '演示样本专用章' : `${c.enterprise}（样本）`, 150, SERIF)}
      <div>委托单位（盖章）：${escape(c.enterprise)}</div>
      <div>法定代表人（签字）：<span class="signature">${escape(c.legalRepresentative)}</span></div>
      <div>日期：${a.signed}</div>
    </div>
    <div class="notice">本授权委托书为 Engineering e+ 平台演示样本，所载单位、人员、证件号码与印章均为虚构，不具有任何法律效力。</div>
  </div></body></html>`;
}

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1120, height: 790 }, deviceScaleFactor: 1 });
  const written = [];
  for (const c of DEMO_CERTIFICATIONS) {
    await page.setContent(await licenceHtml(c), { waitUntil: 'load' });
    await page.evaluate('document.fonts.ready');
    const type = c.licence.mime === 'image/png' ? 'png' : 'jpeg';
    await page.screenshot({ path: path.join(out, c.licence.file), type, ...(type === 'jpeg' ? { quality: 82 } : {}) });
    written.push(c.licence.file);
    const letter = c.application.authorization;
    if (letter) {
      await page.setContent(authorizationHtml(c), { waitUntil: 'load' });
      await page.evaluate('document.fonts.ready');
      await page.pdf({ path: path.join(out, letter.file), format: 'A4', printBackground: true, preferCSSPageSize: true });
      written.push(letter.file);
    }
  }
  for (const file of written) {
    const bytes = fs.statSync(path.join(out, file)).size;
    console.log(`${file}: ${Math.round(bytes / 1024)} KB`);
    if (bytes > MAX_BYTES) throw new Error(`${file} is over ${MAX_BYTES / 1024} KB`);
  }
} finally {
  await browser.close();
}
