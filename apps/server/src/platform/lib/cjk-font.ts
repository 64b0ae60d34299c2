import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * Noto Sans SC (OFL), shipped as an npm package: a TrueType font with every Chinese character for the
 * PDFs the server draws (labels, evidence packs); each PDF embeds only the glyphs it uses. Read once, on
 * first use, never fetched from the network.
 */
const FONT_FILE = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf');
let fontData: Promise<Buffer> | undefined;

export const cjkFont = (): Promise<Buffer> =>
  (fontData ??= readFile(FONT_FILE).catch((err: unknown) => {
    fontData = undefined;
    throw err;
  }));
