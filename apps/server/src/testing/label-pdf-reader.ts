import jsQRModule from 'jsqr';
import { ImageKind, OPS, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// A CommonJS package whose types declare an ES default export.
const jsQR = jsQRModule.default;

/** What a printed label PDF shows, read back as a viewer would: per page its size, QR payloads and text. */
export interface LabelPdfPage {
  /** Width and height in millimetres. */
  size: [number, number];
  /** The payload of each QR image on the page, in drawing order. */
  qr: string[];
  /** The page's text, its pieces joined without separators (lines wrap anywhere). */
  text: string;
}

interface PdfImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

const MM = 25.4 / 72;
/** Pixels per module and white modules around the code when handing the image to the decoder. */
const SCALE = 4;
const QUIET = 4;

/** The image as RGBA, scaled up without smoothing and with a quiet zone: what a camera would see. */
function decodeQr(image: PdfImage): string | undefined {
  const channels = image.kind === ImageKind.RGBA_32BPP ? 4 : image.kind === ImageKind.RGB_24BPP ? 3 : 0;
  const dark = (x: number, y: number): boolean => {
    if (channels === 0) {
      // GRAYSCALE_1BPP: rows padded to whole bytes, 1 = white.
      const stride = Math.ceil(image.width / 8);
      return ((image.data[y * stride + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0;
    }
    return image.data[(y * image.width + x) * channels]! < 128;
  };
  const w = (image.width + 2 * QUIET) * SCALE;
  const h = (image.height + 2 * QUIET) * SCALE;
  const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!dark(x, y)) continue;
      for (let dy = 0; dy < SCALE; dy++) {
        for (let dx = 0; dx < SCALE; dx++) {
          const i = (((y + QUIET) * SCALE + dy) * w + (x + QUIET) * SCALE + dx) * 4;
          rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
        }
      }
    }
  }
  return jsQR(rgba, w, h)?.data;
}

/** Reads a PDF's pages: the images its operators paint (decoded as QR codes) and its text (pdf.js, the browsers' reader). */
export async function readLabelPdf(bytes: Uint8Array): Promise<LabelPdfPage[]> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const pages: LabelPdfPage[] = [];
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const [, , width, height] = page.view;
      const operators = await page.getOperatorList();
      const qr: string[] = [];
      for (let i = 0; i < operators.fnArray.length; i++) {
        if (operators.fnArray[i] !== OPS.paintImageXObject) continue;
        const id = (operators.argsArray[i] as [string])[0];
        const image = await new Promise<PdfImage>((resolve) => page.objs.get(id, resolve));
        qr.push(decodeQr(image) ?? '(unreadable)');
      }
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
      pages.push({ size: [Math.round(width! * MM), Math.round(height! * MM)], qr, text });
    }
  } finally {
    await pdf.destroy();
  }
  return pages;
}
