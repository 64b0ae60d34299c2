import { crc32, deflateSync } from 'node:zlib';

/**
 * Small but valid certification materials for browser tests: the server recognises them by content
 * (file-type), the material viewer draws them (an <img>, pdf.js).
 */

/** A PDF of `pages` A4 pages with one line of text each (Helvetica), offsets computed for the xref table. */
export function pdfDocument(pages: string[]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  pages.forEach((text, i) => {
    const stream = `BT /F1 28 Tf 72 720 Td (${text}) Tj ET 0 0 1 RG 8 w 40 40 515 762 re S`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

type Rgb = readonly [number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A licence-like PNG (8-bit RGB, PNG 1.2): a paper background, a frame in `accent`, a title bar and
 * lines of "text" as bars, so a viewer shows something recognisable.
 */
export function licencePng(width: number, height: number, accent: Rgb): Buffer {
  const paper: Rgb = [253, 246, 227];
  const ink: Rgb = [60, 60, 60];
  const colourAt = (x: number, y: number): Rgb => {
    const frame = x < 16 || y < 16 || x >= width - 16 || y >= height - 16;
    if (frame) return accent;
    const title = y >= 50 && y < 90 && x >= width * 0.35 && x < width * 0.65;
    if (title) return accent;
    const line = y >= 130 && y < height - 40 && (y - 130) % 40 < 14 && x >= 60 && x < width - 60 - ((y * 7) % 120);
    return line ? ink : paper;
  };
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (width * 3 + 1);
    rows[at] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colourAt(x, y);
      rows[at + 1 + x * 3] = r;
      rows[at + 2 + x * 3] = g;
      rows[at + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
