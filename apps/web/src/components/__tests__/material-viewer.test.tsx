import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { MaterialViewer } from '../material-viewer';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

// pdf.js itself does not run here: a stand-in document of two A4 pages records how each page is drawn.
const pdfjs = vi.hoisted(() => {
  const viewport = ({ scale, rotation = 0 }: { scale: number; rotation?: number }) => {
    const sideways = rotation % 180 !== 0;
    return { width: (sideways ? 842 : 595) * scale, height: (sideways ? 595 : 842) * scale, scale, rotation };
  };
  const page = {
    rotate: 0,
    getViewport: vi.fn(viewport),
    render: vi.fn(() => ({ promise: Promise.resolve(), cancel: vi.fn() })),
  };
  const document = { numPages: 2, getPage: vi.fn(() => Promise.resolve(page)) };
  return {
    page,
    destroy: vi.fn(() => Promise.resolve()),
    getDocument: vi.fn(),
    GlobalWorkerOptions: { workerSrc: '' },
    document,
  };
});
vi.mock('pdfjs-dist', () => ({ GlobalWorkerOptions: pdfjs.GlobalWorkerOptions, getDocument: pdfjs.getDocument }));
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min.mjs' }));

const FILE_URL = '/web-api/console/v1/enterprise/certification/file';
const LICENCE = { id: 7, name: '营业执照.png', mime: 'image/png' };
const LETTER = { id: 8, name: '授权书.pdf', mime: 'application/pdf' };

beforeEach(() => {
  fake.api = createFakeApi();
  fake.api.blob.mockImplementation((url: string) =>
    Promise.resolve(url.endsWith('/8') ? new Blob(['%PDF-1.7'], { type: 'application/pdf' }) : new Blob(['png'], { type: 'image/png' })),
  );
  pdfjs.getDocument.mockImplementation(() => ({ promise: Promise.resolve(pdfjs.document), destroy: pdfjs.destroy }));
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost:3000/licence');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  pdfjs.page.getViewport.mockClear();
  pdfjs.page.render.mockClear();
});

const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('MaterialViewer', () => {
  it('fetches the private file with the token (through the API client) and shows the image from an object URL, revoked when it closes', async () => {
    const { unmount } = renderWithProviders(<MaterialViewer file={LICENCE} />);
    const image = await screen.findByRole('img', { name: '营业执照.png' });
    expect(fake.api!.blob).toHaveBeenCalledWith(`${FILE_URL}/7`);
    await waitFor(() => expect(image.getAttribute('src')).toBe('blob:http://localhost:3000/licence'));
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost:3000/licence');
  });

  it('zooms, rotates and resets an image', async () => {
    renderWithProviders(<MaterialViewer file={LICENCE} />);
    const image = await screen.findByRole('img', { name: '营业执照.png' });
    const zoom = screen.getByRole('status', { name: '缩放比例' });
    expect(image.style.transform).toContain('rotate(0deg) scale(1)');
    expect(zoom.textContent).toBe('100%');

    click('放大');
    click('放大');
    expect(zoom.textContent).toBe('150%');
    expect(image.style.transform).toContain('scale(1.5)');
    click('缩小');
    expect(image.style.transform).toContain('scale(1.25)');

    click('向右旋转');
    expect(image.style.transform).toContain('rotate(90deg)');
    click('向左旋转');
    click('向左旋转');
    expect(image.style.transform).toContain('rotate(270deg)');

    click('还原');
    expect(image.style.transform).toContain('rotate(0deg) scale(1)');
    expect(zoom.textContent).toBe('100%');
  });

  it('stops zooming out at 25% and in at 400%', async () => {
    renderWithProviders(<MaterialViewer file={LICENCE} />);
    await screen.findByRole('img', { name: '营业执照.png' });
    for (let i = 0; i < 3; i++) click('缩小');
    expect(screen.getByRole('status', { name: '缩放比例' }).textContent).toBe('25%');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '缩小' }).disabled).toBe(true);
    for (let i = 0; i < 8; i++) click('放大');
    expect(screen.getByRole('status', { name: '缩放比例' }).textContent).toBe('400%');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '放大' }).disabled).toBe(true);
  });

  it('draws every page of a PDF with pdf.js, shows the page count, and draws again when zoomed or rotated', async () => {
    const { unmount } = renderWithProviders(<MaterialViewer file={LETTER} />);
    expect(await screen.findByText('共 2 页')).toBeTruthy();
    const pages = await screen.findAllByRole('img', { name: /^第 \d 页$/ });
    expect(pages).toHaveLength(2);
    expect(pdfjs.GlobalWorkerOptions.workerSrc).toBe('/assets/pdf.worker.min.mjs');
    expect(pdfjs.getDocument).toHaveBeenCalledWith(expect.objectContaining({ isEvalSupported: false }));
    await waitFor(() => expect(pdfjs.page.render).toHaveBeenCalledTimes(2));
    const first = pages[0] as HTMLCanvasElement;
    expect(first.style.width).toBe('595px');

    click('放大');
    await waitFor(() => expect(pdfjs.page.render).toHaveBeenCalledTimes(4));
    expect(pdfjs.page.getViewport).toHaveBeenLastCalledWith({ scale: 1.25, rotation: 0 });
    expect(first.style.width).toBe(`${Math.floor(595 * 1.25)}px`);

    click('向右旋转');
    await waitFor(() => expect(pdfjs.page.render).toHaveBeenCalledTimes(6));
    expect(pdfjs.page.getViewport).toHaveBeenLastCalledWith({ scale: 1.25, rotation: 90 });
    expect(first.style.width).toBe(`${Math.floor(842 * 1.25)}px`);

    unmount();
    expect(pdfjs.destroy).toHaveBeenCalled();
  });

  it('says so when a PDF cannot be read, and the file can still be downloaded', async () => {
    pdfjs.getDocument.mockImplementation(() => ({ promise: Promise.reject(new Error('Invalid PDF structure')), destroy: pdfjs.destroy }));
    renderWithProviders(<MaterialViewer file={LETTER} />);
    expect(await screen.findByText('无法预览该 PDF，请下载后查看')).toBeTruthy();
    expect(within(screen.getByRole('toolbar')).getByRole<HTMLButtonElement>('button', { name: '下载' }).disabled).toBe(false);
  });
});
