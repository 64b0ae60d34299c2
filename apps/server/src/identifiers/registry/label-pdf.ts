import { setImmediate as nextTurn } from 'node:timers/promises';
import { LABEL_SHEET, type LabelLayout, type LabelSize, labelDimensions, labelSheetGrid } from '@portal/shared';
import type { PNG } from 'pngjs';
import encodeQR from 'qr';
import { cjkFont } from '../../platform/lib/cjk-font.js';

/** What one label shows: the QR code of `url`, the handle and up to two `名称：值` lines. */
export interface LabelContent {
  handle: string;
  url: string;
  fields: string[];
}

export interface LabelOptions {
  size: LabelSize;
  layout: LabelLayout;
  cutGuides: boolean;
}

/** Points per millimetre (PDF user space is 1/72 inch). */
const MM = 72 / 25.4;

const FONT = 'label';

/** Padding and type sizes per label size: small thermal labels stay legible, large ones fill out. */
const STYLES: Record<LabelSize, { padding: number; handlePt: number; fieldPt: number }> = {
  '40x30': { padding: 2, handlePt: 6, fieldPt: 5.5 },
  '50x30': { padding: 2, handlePt: 6.5, fieldPt: 6 },
  '60x40': { padding: 2.5, handlePt: 8, fieldPt: 7.5 },
  '70x50': { padding: 3, handlePt: 9.5, fieldPt: 8.5 },
  '100x70': { padding: 4, handlePt: 12, fieldPt: 11 },
};
const QR_BORDER = 2;
const HANDLE_LINES = 3;
const FIELD_LINES = 2;
/** Labels drawn between two turns of the event loop (a few milliseconds of work). */
const LABELS_PER_TURN = 8;

/**
 * The QR code as a greyscale PNG of one pixel per module with a two-module quiet zone (byte mode,
 * level M): a few hundred bytes that viewers and printers scale up without smoothing (PDF 32000-1
 * 8.9.5.3: Interpolate is false unless set). The label's padding completes the quiet zone.
 */
function qrPng(Png: typeof PNG, text: string): Buffer {
  const rows = encodeQR(text, 'raw', { ecc: 'medium', encoding: 'byte', border: QR_BORDER });
  const n = rows.length;
  const png = new Png({ width: n, height: n });
  png.data = Buffer.alloc(n * n, 255);
  rows.forEach((row, y) => row.forEach((dark, x) => dark && (png.data[y * n + x] = 0)));
  // A few hundred bytes: small zlib buffers, unfiltered rows.
  return Png.sync.write(png, {
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    filterType: 0,
    deflateLevel: 6,
    deflateChunkSize: 4096,
  });
}

/** Where each label of a page goes, in points from the page's top left. */
function pageLayout(options: LabelOptions) {
  const { width, height } = labelDimensions(options.size);
  if (options.layout === 'single') return { pageSize: [width * MM, height * MM], slots: [{ x: 0, y: 0 }] };
  const { columns, rows } = labelSheetGrid(options.size);
  const gap = LABEL_SHEET.gap;
  const left = (LABEL_SHEET.width - columns * width - (columns - 1) * gap) / 2;
  const top = (LABEL_SHEET.height - rows * height - (rows - 1) * gap) / 2;
  const slots = Array.from({ length: rows * columns }, (_, i) => ({
    x: (left + (i % columns) * (width + gap)) * MM,
    y: (top + Math.floor(i / columns) * (height + gap)) * MM,
  }));
  return { pageSize: [LABEL_SHEET.width * MM, LABEL_SHEET.height * MM], slots };
}

function drawLabel(doc: PDFKit.PDFDocument, Png: typeof PNG, label: LabelContent, x: number, y: number, options: LabelOptions) {
  const { width, height } = labelDimensions(options.size);
  const style = STYLES[options.size];
  const padding = style.padding * MM;
  // The QR code on the left, then the text.
  const side = Math.min(height - 2 * style.padding, width / 2) * MM;
  const gap = Math.max(2 * MM, side * 0.05);
  const qrTop = y + (height * MM - side) / 2;
  doc.image(qrPng(Png, label.url), x + padding, qrTop, { width: side, height: side });
  if (options.cutGuides) {
    doc
      .save()
      .lineWidth(0.25)
      .dash(2, { space: 2 })
      .strokeColor('#9a9a9a')
      .rect(x, y, width * MM, height * MM)
      .stroke()
      .restore();
  }
  const textX = x + padding + side + gap;
  const textWidth = x + width * MM - padding - textX;
  const bottom = y + height * MM - padding;
  const write = (text: string, size: number, lines: number, top: number) => {
    const lineHeight = doc.fontSize(size).currentLineHeight(true);
    const room = Math.min(lines * lineHeight, bottom - top);
    if (room < lineHeight) return top;
    doc.text(text, textX, top, { width: textWidth, height: room, ellipsis: true });
    return doc.y;
  };
  let top = write(label.handle, style.handlePt, HANDLE_LINES, qrTop);
  for (const field of label.fields) top = write(field, style.fieldPt, FIELD_LINES, top + 0.8 * MM);
}

/**
 * The labels as a PDF stream: A4 sheets filled in rows, or one label a page sized to the label (for
 * label printers). Pages are drawn a few labels at a time, yielding to the event loop in between,
 * and stream out as they are finished; the font's glyphs are embedded at the end.
 */
export async function labelPdf(labels: readonly LabelContent[], options: LabelOptions): Promise<PDFKit.PDFDocument> {
  // pdfkit and pngjs are loaded by the first label sheet: most processes never print one.
  const [font, { default: PDFDocument }, { PNG: Png }] = await Promise.all([cjkFont(), import('pdfkit'), import('pngjs')]);
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, compress: true, info: { Title: '标识标签' } });
  doc.registerFont(FONT, font);
  const { pageSize, slots } = pageLayout(options);
  const draw = async () => {
    for (let i = 0; i < labels.length; i++) {
      if (i > 0 && i % LABELS_PER_TURN === 0) {
        await nextTurn();
        // The client went away: stop drawing.
        if (doc.destroyed) return;
      }
      const slot = slots[i % slots.length]!;
      if (i % slots.length === 0) doc.addPage({ size: pageSize, margin: 0 }).font(FONT);
      drawLabel(doc, Png, labels[i]!, slot.x, slot.y, options);
    }
    doc.end();
  };
  draw().catch((err: unknown) => doc.destroy(err instanceof Error ? err : new Error(String(err))));
  return doc;
}
