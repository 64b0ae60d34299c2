import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { RichTextEditor, isEmptyHtml } from '../components/rich-text-editor';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const UPLOADED = { path: '/uploads/2026/05/pic.png', url: 'http://localhost:3000/files/uploads/2026/05/pic.png' };

beforeEach(() => {
  installRuntimeConfig();
  vi.mocked(notify.error).mockClear();
  fake.api = createFakeApi({ 'POST /web-api/files/v1/upload': [UPLOADED] });
});

describe('empty bodies', () => {
  it.each(['', '<p></p>', '<p> </p><p>&nbsp;</p>', '<h2></h2>'])('%j is empty', (html) => expect(isEmptyHtml(html)).toBe(true));
  it.each(['<p>正文</p>', '<img src="/files/a.png">', '<p><img src="x"></p>'])('%j is not', (html) =>
    expect(isEmptyHtml(html)).toBe(false),
  );
});

describe('rich-text editor', () => {
  it('shows the given HTML and follows a new value from the form', async () => {
    const { rerender } = render(<RichTextEditor value="<p>第一段<strong>加粗</strong></p>" />);
    const body = () => within(screen.getByRole('textbox', { name: '正文' }));
    expect(await body().findByRole('strong')).toHaveProperty('textContent', '加粗');
    rerender(<RichTextEditor value="<h2>小标题</h2>" />);
    expect(await body().findByRole('heading', { level: 2, name: '小标题' })).toBeTruthy();
  });

  it('carries the form item’s error link and required mark on its text box, and drops them with the error', async () => {
    const { rerender } = render(<RichTextEditor aria-required="true" aria-invalid="true" aria-describedby="content_help" />);
    const box = screen.getByRole('textbox', { name: '正文' });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe('content_help');
    expect(box.getAttribute('aria-required')).toBe('true');
    rerender(<RichTextEditor aria-required="true" />);
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBeNull());
    expect(box.getAttribute('aria-describedby')).toBeNull();
  });

  it('uploads a chosen image to the server and inserts it with the file service address', async () => {
    const onChange = vi.fn();
    render(<RichTextEditor value="<p>图文</p>" onChange={onChange} />);
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], '现场照片.png', { type: 'image/png' });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('选择要插入的图片'), { target: { files: [file] } });
    });
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    const html = String(onChange.mock.calls.at(-1)?.[0]);
    expect(html).toContain(`<img src="${UPLOADED.url}" alt="现场照片">`);
    const [url, form] = fake.api!.post.mock.calls[0]!;
    expect(url).toBe('/web-api/files/v1/upload');
    expect((form as FormData).get('file')).toBeInstanceOf(Blob);
  });

  it('refuses a file that is not a PNG, JPEG, GIF or WebP image before sending it', async () => {
    const onChange = vi.fn();
    render(<RichTextEditor value="<p>图文</p>" onChange={onChange} />);
    const svg = new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('选择要插入的图片'), { target: { files: [svg] } });
    });
    expect(notify.error).toHaveBeenCalledWith('只能上传 PNG、JPEG、GIF 或 WebP 图片');
    expect(fake.api!.post).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });
});
