#!/usr/bin/env node
// Draws the demo images the seed refers to (article thumbnails, application cards, carousel
// backgrounds, banners, KPI and award icons) as SVG into apps/server/assets/files/demo.
// Run again after changing a motif; the output is committed.
import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const out = path.resolve(import.meta.dirname, '../apps/server/assets/files/demo');
fs.mkdirSync(out, { recursive: true });

const palettes = [
  ['#0f3d8c', '#1f6fff', '#ffb020'],
  ['#0b4f6c', '#20a4c4', '#f5d547'],
  ['#1b3a5c', '#3f7ad8', '#7ee0c3'],
  ['#3a1c71', '#5b6be0', '#ffaf7b'],
  ['#123b2d', '#1f9d6b', '#c5f26c'],
  ['#40210f', '#d4631c', '#ffd27a'],
];
// Three more for the article thumbnails (the images above keep theirs).
const thumbPalettes = [
  ...palettes,
  ['#0d3b45', '#138a8a', '#9ef0e0'],
  ['#4a1020', '#c0392b', '#ffd1a1'],
  ['#1f2937', '#52627a', '#93c5fd'],
];

// Simple industrial motifs in a 400×240 box.
const motifs = {
  gear: (c) =>
    `<g transform="translate(290 120)" fill="none" stroke="${c}" stroke-width="10"><circle r="46"/><circle r="16"/>${Array.from({ length: 8 }, (_, i) => `<rect x="-9" y="-70" width="18" height="22" fill="${c}" stroke="none" transform="rotate(${i * 45})"/>`).join('')}</g>`,
  excavator: (c) =>
    `<g fill="${c}"><rect x="220" y="150" width="130" height="26" rx="13"/><rect x="240" y="108" width="80" height="42" rx="6"/><rect x="300" y="86" width="34" height="30" rx="4" opacity=".85"/><path d="M250 112 L200 60 L150 80 L160 92 L198 78 L236 122 Z"/><path d="M150 80 L128 128 L168 122 Z" opacity=".9"/></g>`,
  chart: (c) =>
    `<g fill="${c}"><rect x="220" y="140" width="24" height="50" rx="3"/><rect x="256" y="110" width="24" height="80" rx="3"/><rect x="292" y="80" width="24" height="110" rx="3"/><rect x="328" y="58" width="24" height="132" rx="3"/></g><polyline points="215,120 262,92 300,100 350,44" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/>`,
  network: (c) =>
    `<g stroke="${c}" stroke-width="4" fill="none"><line x1="230" y1="70" x2="300" y2="120"/><line x1="300" y1="120" x2="360" y2="70"/><line x1="300" y1="120" x2="280" y2="190"/><line x1="230" y1="70" x2="280" y2="190"/></g><g fill="${c}"><circle cx="230" cy="70" r="14"/><circle cx="300" cy="120" r="20"/><circle cx="360" cy="70" r="12"/><circle cx="280" cy="190" r="14"/></g>`,
  factory: (c) =>
    `<g fill="${c}"><path d="M200 190 V120 L245 140 V120 L290 140 V120 L335 140 V80 h22 V190 Z"/><rect x="340" y="50" width="14" height="40" opacity=".8"/></g><g fill="#fff" opacity=".85"><rect x="215" y="160" width="16" height="14"/><rect x="255" y="160" width="16" height="14"/><rect x="295" y="160" width="16" height="14"/></g>`,
  crane: (c) =>
    `<g fill="none" stroke="${c}" stroke-width="8" stroke-linecap="round"><line x1="260" y1="200" x2="260" y2="50"/><line x1="200" y1="56" x2="370" y2="56"/><line x1="260" y1="90" x2="210" y2="56"/><line x1="350" y1="56" x2="350" y2="120"/></g><rect x="336" y="120" width="28" height="22" fill="${c}"/>`,
  chip: (c) =>
    `<g fill="none" stroke="${c}" stroke-width="6"><rect x="250" y="70" width="100" height="100" rx="10"/>${[90, 120, 150].map((y) => `<line x1="230" y1="${y}" x2="250" y2="${y}"/><line x1="350" y1="${y}" x2="370" y2="${y}"/>`).join('')}${[270, 300, 330].map((x) => `<line x1="${x}" y1="50" x2="${x}" y2="70"/><line x1="${x}" y1="170" x2="${x}" y2="190"/>`).join('')}</g><rect x="275" y="95" width="50" height="50" rx="6" fill="${c}"/>`,
  shield: (c) =>
    `<path d="M300 44 L360 68 V120 C360 160 330 186 300 198 C270 186 240 160 240 120 V68 Z" fill="${c}"/><path d="M274 120 L294 140 L330 100" fill="none" stroke="#fff" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>`,
  cloud: (c) =>
    `<path d="M240 170 a36 36 0 0 1 6-72 a50 50 0 0 1 96-10 a40 40 0 0 1 14 82 Z" fill="${c}"/><g stroke="#fff" stroke-width="5"><line x1="280" y1="150" x2="280" y2="120"/><line x1="300" y1="150" x2="300" y2="110"/><line x1="320" y1="150" x2="320" y2="128"/></g>`,
  qrcode: (c) =>
    `<g fill="${c}"><rect x="240" y="60" width="44" height="44"/><rect x="316" y="60" width="44" height="44"/><rect x="240" y="136" width="44" height="44"/><rect x="300" y="120" width="16" height="16"/><rect x="330" y="140" width="16" height="16"/><rect x="316" y="164" width="16" height="16"/><rect x="344" y="164" width="16" height="16"/></g><g fill="#fff"><rect x="252" y="72" width="20" height="20"/><rect x="328" y="72" width="20" height="20"/><rect x="252" y="148" width="20" height="20"/></g>`,
};

// Motifs of the article thumbnails: one picture per subject, so that the cards of a list differ
// (the seed gives every article of a category its own).
Object.assign(motifs, {
  antenna: (c) =>
    `<g fill="none" stroke="${c}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"><path d="M300 84 L268 200 M300 84 L332 200 M287 132 H313 M281 158 H319 M275 184 H325 M287 132 L319 158 M313 132 L281 158"/><path d="M321 51 A30 30 0 0 1 321 93 M279 51 A30 30 0 0 0 279 93"/><path d="M336 37 A50 50 0 0 1 336 107 M264 37 A50 50 0 0 0 264 107" stroke-opacity=".7"/></g><circle cx="300" cy="72" r="10" fill="${c}"/>`,
  neural: (c) => {
    const cols = [
      [236, [70, 120, 170]],
      [300, [52, 98, 144, 190]],
      [364, [95, 145]],
    ];
    const lines = [];
    for (let k = 0; k < cols.length - 1; k++)
      for (const y1 of cols[k][1])
        for (const y2 of cols[k + 1][1]) lines.push(`<line x1="${cols[k][0]}" y1="${y1}" x2="${cols[k + 1][0]}" y2="${y2}"/>`);
    const nodes = cols.flatMap(([x, ys]) => ys.map((y) => `<circle cx="${x}" cy="${y}" r="11"/>`));
    return `<g stroke="#fff" stroke-opacity=".45" stroke-width="2.5">${lines.join('')}</g><g fill="${c}">${nodes.join('')}</g>`;
  },
  report: (c) =>
    `<path d="M238 40 H330 L362 72 V204 H238 Z" fill="${c}"/><path d="M330 40 V72 H362" fill="#fff" fill-opacity=".55"/><g fill="#fff" fill-opacity=".9"><rect x="254" y="60" width="56" height="8" rx="4"/><rect x="254" y="78" width="40" height="8" rx="4"/><rect x="258" y="150" width="16" height="36" rx="2"/><rect x="282" y="130" width="16" height="56" rx="2"/><rect x="306" y="112" width="16" height="74" rx="2"/><rect x="330" y="140" width="16" height="46" rx="2"/></g><path d="M254 104 H346" stroke="#fff" stroke-opacity=".5" stroke-width="3"/>`,
  twin: (c) =>
    `<g fill="${c}"><path d="M214 112 L252 92 L290 112 L252 132 Z" fill-opacity=".75"/><path d="M214 112 V160 L252 180 V132 Z"/><path d="M290 112 V160 L252 180 V132 Z" fill-opacity=".85"/></g><g fill="none" stroke="#fff" stroke-width="3" stroke-dasharray="6 5" stroke-linejoin="round"><path d="M318 112 L356 92 L394 112 L356 132 Z M318 112 V160 L356 180 L394 160 V112 M356 132 V180"/></g><path d="M282 72 C300 52 330 52 346 70" fill="none" stroke="${c}" stroke-width="5" stroke-linecap="round"/><path d="M338 58 L348 72 L332 76" fill="none" stroke="${c}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`,
  apps: (c) =>
    `<g>${[0, 1, 2]
      .flatMap((r) =>
        [0, 1, 2].map(
          (k) =>
            `<rect x="${236 + k * 46}" y="${50 + r * 46}" width="36" height="36" rx="9" fill="${(r + k) % 2 ? '#fff' : c}" fill-opacity="${(r + k) % 2 ? '.8' : '1'}"/>`,
        ),
      )
      .join('')}</g><circle cx="356" cy="68" r="7" fill="#fff"/>`,
  pin: (c) =>
    `<ellipse cx="300" cy="192" rx="70" ry="14" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="3" stroke-dasharray="8 6"/><path d="M300 190 C276 150 250 126 250 96 A50 50 0 0 1 350 96 C350 126 324 150 300 190 Z" fill="${c}"/><circle cx="300" cy="96" r="19" fill="#fff"/><circle cx="222" cy="150" r="8" fill="${c}" fill-opacity=".7"/><circle cx="372" cy="160" r="8" fill="${c}" fill-opacity=".7"/>`,
  database: (c) =>
    `<g fill="${c}"><path d="M246 64 V96 A54 16 0 0 0 354 96 V64 Z"/><path d="M246 108 V140 A54 16 0 0 0 354 140 V108 A54 16 0 0 1 246 108 Z"/><path d="M246 152 V184 A54 16 0 0 0 354 184 V152 A54 16 0 0 1 246 152 Z"/></g><ellipse cx="300" cy="64" rx="54" ry="16" fill="#fff" fill-opacity=".85"/><g fill="#fff"><circle cx="336" cy="124" r="5"/><circle cx="336" cy="168" r="5"/><circle cx="336" cy="82" r="5" fill="${c}"/></g>`,
  podium: (c) =>
    `<rect x="226" y="48" width="148" height="88" rx="6" fill="none" stroke="${c}" stroke-width="6"/><g fill="${c}" fill-opacity=".85"><rect x="246" y="100" width="18" height="24"/><rect x="272" y="86" width="18" height="38"/><rect x="298" y="70" width="18" height="54"/></g><path d="M332 110 L344 92 L356 100 L362 78" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/><path d="M300 136 V150 M270 208 L300 150 L330 208" stroke="${c}" stroke-width="6" fill="none" stroke-linecap="round"/><path d="M196 150 H236 L230 208 H202 Z" fill="#fff" fill-opacity=".85"/><path d="M216 150 V132" stroke="#fff" stroke-width="4"/><circle cx="216" cy="128" r="6" fill="#fff"/>`,
  pulse: (c) =>
    `<g stroke="#fff" stroke-opacity=".25" stroke-width="2"><line x1="210" y1="80" x2="390" y2="80"/><line x1="210" y1="120" x2="390" y2="120"/><line x1="210" y1="160" x2="390" y2="160"/></g><polyline points="206,130 240,130 254,108 268,150 282,130 300,130 314,64 330,188 346,96 358,130 392,130" fill="none" stroke="${c}" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/><circle cx="314" cy="64" r="10" fill="#fff"/>`,
  wrench: (c) =>
    `<defs><mask id="w"><rect width="400" height="240" fill="#fff"/><rect x="352" y="110" width="40" height="22" fill="#000"/><circle cx="226" cy="121" r="9" fill="#000"/></mask></defs><g transform="rotate(-35 300 121)"><g mask="url(#w)" fill="${c}"><rect x="226" y="110" width="116" height="22" rx="6"/><circle cx="350" cy="121" r="32"/><circle cx="226" cy="121" r="22"/></g></g><g fill="#fff" fill-opacity=".6"><circle cx="236" cy="70" r="5"/><circle cx="384" cy="178" r="4"/></g>`,
  code: (c) =>
    `<rect x="220" y="46" width="160" height="150" rx="12" fill="${c}"/><rect x="220" y="46" width="160" height="30" rx="12" fill="#fff" fill-opacity=".35"/><g fill="#fff"><circle cx="238" cy="61" r="5"/><circle cx="254" cy="61" r="5"/><circle cx="270" cy="61" r="5"/></g><g fill="none" stroke="#fff" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"><polyline points="272,106 248,134 272,162"/><polyline points="328,106 352,134 328,162"/><line x1="312" y1="100" x2="288" y2="168"/></g>`,
  headset: (c) =>
    `<path d="M240 140 V124 A60 60 0 0 1 360 124 V140" fill="none" stroke="${c}" stroke-width="12" stroke-linecap="round"/><rect x="226" y="126" width="32" height="56" rx="12" fill="${c}"/><rect x="342" y="126" width="32" height="56" rx="12" fill="${c}"/><path d="M358 182 C358 206 334 212 312 212" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/><rect x="290" y="202" width="26" height="18" rx="9" fill="#fff"/>`,
  iotbox: (c) =>
    `<g stroke="${c}" stroke-width="6" stroke-linecap="round"><line x1="262" y1="100" x2="252" y2="52"/><line x1="338" y1="100" x2="348" y2="52"/></g><rect x="226" y="100" width="148" height="92" rx="14" fill="${c}"/><g fill="#fff"><circle cx="250" cy="124" r="6"/><circle cx="270" cy="124" r="6" fill-opacity=".6"/><circle cx="290" cy="124" r="6" fill-opacity=".6"/><rect x="246" y="160" width="22" height="14" rx="2"/><rect x="276" y="160" width="22" height="14" rx="2"/><rect x="306" y="160" width="22" height="14" rx="2"/><rect x="336" y="160" width="22" height="14" rx="2" fill-opacity=".6"/></g><path d="M236 48 A20 20 0 0 1 236 78 M364 48 A20 20 0 0 0 364 78" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-opacity=".8"/>`,
  trophy: (c) =>
    `<path d="M258 52 H342 V100 A42 42 0 0 1 258 100 Z" fill="${c}"/><path d="M258 64 H232 C232 100 246 112 264 114 M342 64 H368 C368 100 354 112 336 114" fill="none" stroke="${c}" stroke-width="8" stroke-linecap="round"/><rect x="290" y="140" width="20" height="30" fill="${c}"/><rect x="262" y="170" width="76" height="22" rx="4" fill="${c}"/><path d="M300 66 L306 80 L321 81 L309 90 L313 105 L300 97 L287 105 L291 90 L279 81 L294 80 Z" fill="#fff"/>`,
  rocket: (c) =>
    `<g transform="rotate(40 300 120)"><path d="M300 34 C328 58 336 100 330 150 H270 C264 100 272 58 300 34 Z" fill="${c}"/><circle cx="300" cy="92" r="14" fill="#fff"/><path d="M270 120 L246 160 H272 Z M330 120 L354 160 H328 Z" fill="${c}" fill-opacity=".8"/><path d="M280 150 H320 L312 176 L300 204 L288 176 Z" fill="#fff" fill-opacity=".75"/></g><g fill="#fff" fill-opacity=".6"><circle cx="222" cy="70" r="4"/><circle cx="372" cy="190" r="3"/><circle cx="360" cy="56" r="5"/></g>`,
  flask: (c) =>
    `<path d="M284 46 H316 M290 46 V104 L244 188 A12 12 0 0 0 254 204 H346 A12 12 0 0 0 356 188 L310 104 V46" fill="none" stroke="${c}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/><path d="M266 150 H334 L352 188 A8 8 0 0 1 346 198 H254 A8 8 0 0 1 248 188 Z" fill="${c}"/><g fill="#fff"><circle cx="288" cy="174" r="7"/><circle cx="314" cy="182" r="5"/><circle cx="306" cy="128" r="5" fill-opacity=".7"/><circle cx="296" cy="84" r="4" fill-opacity=".6"/></g>`,
  phone: (c) =>
    `<rect x="262" y="36" width="92" height="172" rx="16" fill="${c}"/><rect x="272" y="56" width="72" height="124" rx="4" fill="#fff" fill-opacity=".9"/><rect x="294" y="192" width="28" height="6" rx="3" fill="#fff"/><g fill="${c}"><rect x="284" y="72" width="20" height="20"/><rect x="312" y="72" width="20" height="20"/><rect x="284" y="100" width="20" height="20"/><rect x="314" y="102" width="8" height="8"/><rect x="324" y="112" width="8" height="8"/></g><g fill="${c}" fill-opacity=".5"><rect x="284" y="136" width="48" height="6" rx="3"/><rect x="284" y="150" width="32" height="6" rx="3"/></g><path d="M232 92 H252 M232 120 H252" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-opacity=".7"/>`,
  globe: (c) =>
    `<circle cx="300" cy="120" r="70" fill="${c}"/><g fill="none" stroke="#fff" stroke-opacity=".75" stroke-width="3"><ellipse cx="300" cy="120" rx="30" ry="70"/><line x1="300" y1="50" x2="300" y2="190"/><path d="M236 92 H364 M232 120 H368 M236 148 H364"/></g><ellipse cx="300" cy="120" rx="100" ry="26" fill="none" stroke="#fff" stroke-width="4" transform="rotate(-20 300 120)"/><circle cx="392" cy="94" r="7" fill="#fff"/>`,
  team: (c) =>
    `<g fill="${c}" fill-opacity=".75"><circle cx="246" cy="92" r="20"/><path d="M212 170 C212 138 228 122 246 122 C264 122 280 138 280 170 Z"/><circle cx="354" cy="92" r="20"/><path d="M320 170 C320 138 336 122 354 122 C372 122 388 138 388 170 Z"/></g><g fill="${c}"><circle cx="300" cy="80" r="26"/><path d="M254 190 C254 146 276 118 300 118 C324 118 346 146 346 190 Z"/></g>`,
  robot: (c) =>
    `<rect x="214" y="186" width="84" height="18" rx="4" fill="${c}"/><path d="M236 186 V166 H276 V186 Z" fill="${c}"/><g stroke="${c}" stroke-width="18" stroke-linecap="round"><line x1="256" y1="160" x2="290" y2="92"/><line x1="290" y1="92" x2="350" y2="104"/></g><g fill="#fff"><circle cx="256" cy="160" r="8"/><circle cx="290" cy="92" r="8"/></g><path d="M350 92 V116 M350 104 H366 M366 92 L378 88 M366 116 L378 120 M366 92 V116" stroke="${c}" stroke-width="7" fill="none" stroke-linecap="round"/><rect x="340" y="176" width="44" height="28" rx="3" fill="#fff" fill-opacity=".8"/>`,
  lock: (c) =>
    `<path d="M262 110 V84 A38 38 0 0 1 338 84 V110" fill="none" stroke="${c}" stroke-width="14"/><rect x="240" y="104" width="120" height="94" rx="14" fill="${c}"/><circle cx="300" cy="142" r="12" fill="#fff"/><rect x="295" y="146" width="10" height="28" rx="4" fill="#fff"/><g fill="#fff" fill-opacity=".5"><circle cx="212" cy="80" r="5"/><circle cx="386" cy="150" r="5"/></g>`,
  link: (c) =>
    `<g fill="none" stroke-width="16" stroke-linecap="round"><rect x="206" y="88" width="118" height="64" rx="32" stroke="${c}" transform="rotate(-20 265 120)"/><rect x="278" y="88" width="118" height="64" rx="32" stroke="#fff" stroke-opacity=".85" transform="rotate(-20 337 120)"/></g><path d="M292 94 L304 128" stroke="${c}" stroke-width="16" stroke-linecap="round"/>`,
  government: (c) =>
    `<path d="M224 92 L300 46 L376 92 Z" fill="${c}"/><rect x="228" y="96" width="144" height="12" fill="${c}"/><g fill="${c}">${[240, 268, 296, 324, 352].map((x) => `<rect x="${x}" y="114" width="12" height="64"/>`).join('')}</g><rect x="222" y="182" width="156" height="10" fill="${c}"/><rect x="210" y="196" width="180" height="10" fill="${c}" fill-opacity=".8"/><circle cx="300" cy="74" r="8" fill="#fff"/>`,
  calendar: (c) =>
    `<rect x="226" y="58" width="148" height="140" rx="12" fill="${c}"/><rect x="226" y="58" width="148" height="34" rx="12" fill="#fff" fill-opacity=".35"/><g stroke="#fff" stroke-width="8" stroke-linecap="round"><line x1="262" y1="46" x2="262" y2="70"/><line x1="338" y1="46" x2="338" y2="70"/></g><g fill="#fff" fill-opacity=".8">${[
      0, 1, 2,
    ]
      .flatMap((r) => [0, 1, 2, 3].map((k) => `<rect x="${244 + k * 30}" y="${106 + r * 28}" width="20" height="16" rx="3"/>`))
      .join(
        '',
      )}</g><circle cx="344" cy="176" r="18" fill="#fff"/><path d="M335 176 L342 183 L354 169" fill="none" stroke="${c}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`,
  steps: (c) =>
    `<g fill="${c}"><rect x="220" y="162" width="40" height="36"/><rect x="262" y="128" width="40" height="70" fill-opacity=".9"/><rect x="304" y="94" width="40" height="104" fill-opacity=".8"/></g><path d="M230 140 L274 104 L316 72 L356 46" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/><path d="M338 42 L360 42 L358 64" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/><circle cx="366" cy="180" r="16" fill="#fff" fill-opacity=".85"/>`,
  coins: (c) => {
    const stack = (x, n) =>
      Array.from(
        { length: n },
        (_, k) =>
          `<ellipse cx="${x}" cy="${192 - k * 14}" rx="32" ry="10" fill="${c}" stroke="#fff" stroke-opacity=".6" stroke-width="2"/>`,
      ).join('');
    return `${stack(244, 4)}${stack(312, 7)}<circle cx="360" cy="76" r="30" fill="#fff" fill-opacity=".9"/><path d="M348 60 L360 76 L372 60 M360 76 V96 M348 78 H372 M348 87 H372" fill="none" stroke="${c}" stroke-width="4" stroke-linecap="round"/>`;
  },
  barcode: (c) => {
    const widths = [6, 3, 9, 3, 6, 12, 3, 6, 3, 9, 6, 3, 12, 3, 6];
    let x = 240;
    const bars = widths.map((w, k) => {
      const r = k % 2 === 0 ? `<rect x="${x}" y="74" width="${w}" height="92"/>` : '';
      x += w + 3;
      return r;
    });
    return `<g fill="${c}">${bars.join('')}</g><g fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"><path d="M220 76 V54 H244 M356 54 H380 V76 M380 164 V186 H356 M244 186 H220 V164"/></g><line x1="214" y1="120" x2="386" y2="120" stroke="#ff5a5a" stroke-width="3" stroke-opacity=".9"/>`;
  },
  bell: (c) =>
    `<path d="M300 48 C264 48 252 80 252 112 V146 L234 168 H366 L348 146 V112 C348 80 336 48 300 48 Z" fill="${c}"/><circle cx="300" cy="44" r="8" fill="${c}"/><path d="M284 176 A16 16 0 0 0 316 176 Z" fill="#fff"/><g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"><path d="M228 70 C218 84 216 104 222 120"/><path d="M372 70 C382 84 384 104 378 120"/></g>`,
  plug: (c) =>
    `<g fill="${c}"><rect x="238" y="92" width="56" height="56" rx="10"/><rect x="210" y="104" width="30" height="8" rx="3"/><rect x="210" y="128" width="30" height="8" rx="3"/><rect x="318" y="92" width="56" height="56" rx="10" fill-opacity=".75"/></g><g fill="#fff"><rect x="336" y="106" width="8" height="8"/><rect x="336" y="126" width="8" height="8"/></g><path d="M374 120 C398 120 392 170 360 180 M294 120 H318" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-dasharray="2 10"/><path d="M266 148 C266 190 230 190 214 200" fill="none" stroke="${c}" stroke-width="8" stroke-linecap="round"/>`,
  gauge: (c) =>
    `<path d="M220 170 A80 80 0 0 1 380 170" fill="none" stroke="#fff" stroke-opacity=".3" stroke-width="18"/><path d="M220 170 A80 80 0 0 1 340 100.7" fill="none" stroke="${c}" stroke-width="18"/><g stroke="#fff" stroke-width="3">${[
      0, 30, 60, 90, 120, 150, 180,
    ]
      .map((a) => {
        const r = (Math.PI * (180 + a)) / 180;
        return `<line x1="${(300 + 58 * Math.cos(r)).toFixed(1)}" y1="${(170 + 58 * Math.sin(r)).toFixed(1)}" x2="${(300 + 66 * Math.cos(r)).toFixed(1)}" y2="${(170 + 66 * Math.sin(r)).toFixed(1)}"/>`;
      })
      .join(
        '',
      )}</g><line x1="300" y1="170" x2="336" y2="118" stroke="#fff" stroke-width="7" stroke-linecap="round"/><circle cx="300" cy="170" r="12" fill="${c}"/><rect x="264" y="186" width="72" height="16" rx="8" fill="${c}" fill-opacity=".7"/>`,
  hydraulic: (c) =>
    `<g transform="rotate(-18 290 130)"><rect x="204" y="112" width="120" height="40" rx="8" fill="${c}"/><rect x="324" y="124" width="50" height="16" fill="#fff" fill-opacity=".85"/><circle cx="194" cy="132" r="16" fill="none" stroke="${c}" stroke-width="8"/><circle cx="382" cy="132" r="11" fill="none" stroke="#fff" stroke-width="7"/><g fill="#fff" fill-opacity=".6"><rect x="226" y="104" width="12" height="8"/><rect x="296" y="104" width="12" height="8"/></g></g><path d="M300 46 C312 62 320 72 320 82 A20 20 0 0 1 280 82 C280 72 288 62 300 46 Z" fill="${c}"/><ellipse cx="293" cy="82" rx="4" ry="7" fill="#fff" fill-opacity=".7"/>`,
  key: (c) =>
    `<g transform="rotate(-30 300 120)"><circle cx="244" cy="120" r="36" fill="${c}"/><circle cx="236" cy="120" r="12" fill="#fff"/><rect x="276" y="112" width="110" height="16" rx="4" fill="${c}"/><rect x="340" y="128" width="12" height="22" fill="${c}"/><rect x="362" y="128" width="12" height="30" fill="${c}"/></g><g fill="#fff" fill-opacity=".6"><circle cx="350" cy="64" r="5"/><circle cx="372" cy="52" r="3"/></g>`,
  book: (c) =>
    `<path d="M300 70 C270 54 238 54 216 62 V186 C238 178 270 178 300 194 Z" fill="${c}"/><path d="M300 70 C330 54 362 54 384 62 V186 C362 178 330 178 300 194 Z" fill="${c}" fill-opacity=".8"/><g stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-opacity=".8"><path d="M232 88 C250 84 268 84 284 90 M232 108 C250 104 268 104 284 110 M232 128 C250 124 268 124 284 130"/><path d="M316 90 C332 84 350 84 368 88 M316 110 C332 104 350 104 368 108"/></g>`,
  energy: (c) =>
    `<circle cx="300" cy="120" r="74" fill="none" stroke="${c}" stroke-width="8" stroke-dasharray="300 40"/><path d="M312 60 L266 128 H298 L286 182 L336 108 H304 Z" fill="${c}"/><g fill="#fff" fill-opacity=".8"><rect x="372" y="168" width="8" height="22" rx="2"/><rect x="384" y="158" width="8" height="32" rx="2"/></g>`,
  truck: (c) =>
    `<rect x="206" y="84" width="116" height="82" rx="6" fill="${c}"/><path d="M326 104 H360 L388 134 V166 H326 Z" fill="${c}" fill-opacity=".85"/><path d="M338 114 H356 L374 134 H338 Z" fill="#fff" fill-opacity=".85"/><g fill="#fff"><circle cx="242" cy="172" r="18"/><circle cx="356" cy="172" r="18"/></g><g fill="${c}"><circle cx="242" cy="172" r="8"/><circle cx="356" cy="172" r="8"/></g><g stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-opacity=".6"><line x1="222" y1="106" x2="302" y2="106"/><line x1="222" y1="124" x2="284" y2="124"/></g>`,
});

/**
 * The article thumbnails (`thumb-<motif>.svg`) with the palette of each: the seed names the motif of
 * every demo article (content data), so add the motif here first.
 */
const articleThumbs = {
  gear: 8,
  excavator: 5,
  chart: 2,
  network: 0,
  factory: 4,
  crane: 5,
  chip: 3,
  shield: 1,
  cloud: 2,
  qrcode: 3,
  antenna: 6,
  neural: 3,
  report: 8,
  twin: 1,
  apps: 0,
  pin: 7,
  database: 6,
  podium: 7,
  pulse: 2,
  wrench: 5,
  code: 8,
  headset: 4,
  iotbox: 0,
  trophy: 7,
  rocket: 3,
  flask: 6,
  phone: 1,
  globe: 2,
  team: 4,
  robot: 0,
  lock: 8,
  link: 6,
  government: 7,
  calendar: 1,
  steps: 4,
  coins: 5,
  barcode: 2,
  bell: 7,
  plug: 3,
  gauge: 0,
  hydraulic: 6,
  key: 4,
  book: 5,
  truck: 1,
};

function card(name, motif, palette, w = 400, h = 240) {
  const [dark, mid, accent] = palette;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 400 240" preserveAspectRatio="xMidYMid slice">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient>
<pattern id="p" width="24" height="24" patternUnits="userSpaceOnUse"><path d="M24 0H0V24" fill="none" stroke="#fff" stroke-opacity=".07"/></pattern></defs>
<rect width="400" height="240" fill="url(#g)"/><rect width="400" height="240" fill="url(#p)"/>
<circle cx="60" cy="200" r="120" fill="#fff" fill-opacity=".05"/><circle cx="380" cy="10" r="90" fill="${accent}" fill-opacity=".18"/>
${motifs[motif](accent)}
</svg>
`;
  fs.writeFileSync(path.join(out, `${name}.svg`), svg);
}

const motifNames = ['gear', 'excavator', 'chart', 'network', 'factory', 'crane', 'chip', 'shield', 'cloud', 'qrcode'];
// Article thumbnails.
// The first twelve, numbered, for databases seeded before the motifs were named.
for (let i = 1; i <= 12; i++) card(`thumb-${i}`, motifNames[(i - 1) % motifNames.length], palettes[(i - 1) % palettes.length]);
for (const [motif, palette] of Object.entries(articleThumbs)) card(`thumb-${motif}`, motif, thumbPalettes[palette]);
// Application images (one per demo application).
// Each application's own subject (the order of the demo applications).
const appMotifs = ['gauge', 'headset', 'twin', 'bell', 'wrench', 'energy', 'iotbox', 'qrcode', 'chart', 'phone'];
appMotifs.forEach((m, i) => card(`app-${i + 1}`, m, palettes[(i + 2) % palettes.length]));

// Carousel backgrounds (spec: three defaults the cards cycle through).
palettes.slice(0, 3).forEach(([dark, mid, accent], i) => {
  fs.writeFileSync(
    path.join(out, `recommend-bg-${i + 1}.svg`),
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="260" viewBox="0 0 400 260" preserveAspectRatio="xMidYMid slice">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mid}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
<rect width="400" height="260" fill="url(#g)"/>
<g fill="none" stroke="#fff" stroke-opacity=".12" stroke-width="2">${Array.from({ length: 6 }, (_, k) => `<circle cx="360" cy="40" r="${40 + k * 34}"/>`).join('')}</g>
<path d="M0 220 C100 180 220 260 400 200 V260 H0 Z" fill="${accent}" fill-opacity=".18"/>
</svg>
`,
  );
});

// Home banners, 1920×520.
const banners = [
  ['banner-1', palettes[0], 'network'],
  ['banner-2', palettes[2], 'chart'],
  ['banner-3', palettes[1], 'excavator'],
];
for (const [name, [dark, mid, accent], motif] of banners) {
  fs.writeFileSync(
    path.join(out, `${name}.svg`),
    `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="520" viewBox="0 0 1920 520" preserveAspectRatio="xMidYMid slice">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient>
<pattern id="p" width="40" height="40" patternUnits="userSpaceOnUse"><path d="M40 0H0V40" fill="none" stroke="#fff" stroke-opacity=".06"/></pattern></defs>
<rect width="1920" height="520" fill="url(#g)"/><rect width="1920" height="520" fill="url(#p)"/>
<circle cx="1500" cy="260" r="300" fill="#fff" fill-opacity=".05"/><circle cx="1500" cy="260" r="200" fill="#fff" fill-opacity=".05"/>
<g transform="translate(1060 20) scale(2)">${motifs[motif](accent)}</g>
</svg>
`,
  );
}

// Small icons for KPI tiles, awards and quick links (64×64).
const icons = {
  'icon-device': '<rect x="14" y="18" width="36" height="26" rx="4"/><rect x="24" y="46" width="16" height="4"/>',
  'icon-enterprise': '<path d="M12 52V22l14 8v-8l14 8V12h12v40z"/>',
  'icon-app':
    '<rect x="12" y="12" width="17" height="17" rx="4"/><rect x="35" y="12" width="17" height="17" rx="4"/><rect x="12" y="35" width="17" height="17" rx="4"/><rect x="35" y="35" width="17" height="17" rx="9"/>',
  'icon-mark':
    '<rect x="12" y="12" width="16" height="16"/><rect x="36" y="12" width="16" height="16"/><rect x="12" y="36" width="16" height="16"/><rect x="38" y="38" width="6" height="6"/><rect x="46" y="46" width="6" height="6"/>',
  'icon-award': '<circle cx="32" cy="26" r="14"/><path d="M22 36l-6 18 10-4 6 8 2-16zM42 36l6 18-10-4-6 8-2-16z"/>',
  'icon-patent':
    '<path d="M18 10h22l10 10v34H18z"/><rect x="24" y="28" width="20" height="4" fill="#fff"/><rect x="24" y="36" width="14" height="4" fill="#fff"/>',
  'icon-standard': '<path d="M32 8l22 10v14c0 12-10 20-22 24C20 52 10 44 10 32V18z"/>',
  'icon-service':
    '<circle cx="32" cy="30" r="16" fill="none" stroke="currentColor" stroke-width="6"/><rect x="12" y="28" width="8" height="14" rx="3"/><rect x="44" y="28" width="8" height="14" rx="3"/>',
};
for (const [name, body] of Object.entries(icons)) {
  fs.writeFileSync(
    path.join(out, `${name}.svg`),
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" fill="#1456d9" color="#1456d9">${body}</svg>\n`,
  );
}
// Link previews (og:image) need a raster image: WeChat and most preview fetchers ignore SVG. Each
// article thumbnail and application image gets a PNG twin of the same size, which the page head names.
for (const file of fs.readdirSync(out).filter((f) => /^(thumb|app)-.+\.svg$/.test(f))) {
  const png = new Resvg(fs.readFileSync(path.join(out, file)), { fitTo: { mode: 'original' } }).render().asPng();
  fs.writeFileSync(path.join(out, file.replace(/\.svg$/, '.png')), png);
}
console.log(`drew ${fs.readdirSync(out).length} images into ${path.relative(process.cwd(), out)}`);
