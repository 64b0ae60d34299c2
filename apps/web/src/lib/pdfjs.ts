import type * as PdfjsModule from 'pdfjs-dist';

type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js (and its worker, a separate file) load when the first PDF is shown: no public page and no
 * other console page downloads them. The worker's address comes from the build (`?url`).
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  // A failed load (offline) is tried again by the next viewer.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
