#!/usr/bin/env node
// Draws the demo images the seed refers to (article thumbnails, application cards, carousel
// backgrounds, banners, KPI and award icons) as SVG into apps/server/assets/files/demo.
// Run again after changing a motif; the output is committed.
import fs from 'node:fs';
import path from 'node:path';

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

const motifNames = Object.keys(motifs);
// Article thumbnails.
for (let i = 1; i <= 12; i++) card(`thumb-${i}`, motifNames[(i - 1) % motifNames.length], palettes[(i - 1) % palettes.length]);
// Application images (one per demo application).
const appMotifs = ['chart', 'network', 'gear', 'shield', 'excavator', 'cloud', 'chip', 'qrcode', 'factory', 'crane'];
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
console.log(`drew ${fs.readdirSync(out).length} images into ${path.relative(process.cwd(), out)}`);
