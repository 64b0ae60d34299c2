import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ChangeEvent } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import type { AdminArticle } from '../api/articles';
import { ArticleFormDrawer } from '../components/article-form-drawer';
import type * as RichTextEditorModule from '../components/rich-text-editor';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));
// The editor itself is tested on its own; here a plain text box stands in for it.
vi.mock('../components/rich-text-editor', async (importOriginal) => ({
  ...(await importOriginal<typeof RichTextEditorModule>()),
  RichTextEditor: ({ value, onChange, placeholder: _placeholder, status: _status, ...field }: RichTextEditorModule.RichTextEditorProps) => (
    <textarea
      {...field}
      aria-label="正文编辑器"
      value={value ?? ''}
      onChange={(e: ChangeEvent<HTMLTextAreaElement>) => onChange?.(e.target.value)}
    />
  ),
}));

const CATEGORIES = [
  { id: 1, categoryId: 'news', categoryName: '行业动态', channel: 'news', parentId: null, sort: 1, articleCount: 3 },
  { id: 2, categoryId: 'policy', categoryName: '政策法规', channel: 'news', parentId: null, sort: 2, articleCount: 0 },
  { id: 3, categoryId: 'policy-national', categoryName: '国家政策', channel: 'news', parentId: 'policy', sort: 3, articleCount: 1 },
];

const POLICY: AdminArticle = {
  id: 9,
  uuid: 'a-9',
  title: '关于推进工业互联网标识解析的通知',
  summary: '通知摘要',
  thumbnail: '/uploads/2026/05/x.png',
  number: '工信部〔2026〕1号',
  categoryId: 'policy-national',
  categoryName: '国家政策',
  dataSourceName: '工业和信息化部',
  expirationDay: 730,
  status: 'draft',
  publishTime: '',
  viewCount: 0,
  updatedAt: '2026-05-01T00:00:00.000Z',
  content: '<p>通知正文</p>',
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    'GET /web-api/cms/v1/category/list': CATEGORIES,
    'GET /web-api/cms/v1/article/a-9': [POLICY],
    'PUT /web-api/cms/v1/article/a-9': (body) => [{ ...POLICY, ...(body as object) }],
    'POST /web-api/cms/v1/article': (body) => [{ ...POLICY, ...(body as object), uuid: 'a-10' }],
  });
});

const saveDraft = () => fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));

describe('article form', () => {
  it('shows the Chinese messages of the required fields and sends nothing', async () => {
    renderWithProviders(<ArticleFormDrawer target="new" onClose={vi.fn()} />);
    saveDraft();
    await waitFor(() => expect(fieldErrors(document.body)).toEqual(['请输入文章标题', '请选择分类', '请输入文章正文']));
    expect(fake.api!.post).not.toHaveBeenCalled();
  });

  it('treats an editor holding only empty paragraphs as no body', async () => {
    renderWithProviders(<ArticleFormDrawer target="new" onClose={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('正文编辑器'), { target: { value: '<p> </p><p>&nbsp;</p>' } });
    saveDraft();
    await waitFor(() => expect(fieldErrors(document.body)).toContain('请输入文章正文'));
  });

  it('edits a policy: shows its number and validity, saves blanks as null and the new validity', async () => {
    renderWithProviders(<ArticleFormDrawer target="a-9" onClose={vi.fn()} />);
    await waitFor(() => expect((screen.getByLabelText('标题') as HTMLInputElement).value).toBe(POLICY.title));
    expect((screen.getByLabelText('文号') as HTMLInputElement).value).toBe('工信部〔2026〕1号');
    const validity = screen.getByLabelText('有效期（天）') as HTMLInputElement;
    expect(validity.value).toBe('730');
    fireEvent.change(validity, { target: { value: '365' } });
    fireEvent.blur(validity);
    fireEvent.change(screen.getByLabelText('来源'), { target: { value: '  ' } });
    saveDraft();
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledTimes(1));
    expect(fake.api!.put.mock.calls[0]![0]).toBe('/web-api/cms/v1/article/a-9');
    expect(fake.api!.put.mock.calls[0]![1]).toEqual({
      title: POLICY.title,
      summary: '通知摘要',
      thumbnail: '/uploads/2026/05/x.png',
      content: '<p>通知正文</p>',
      number: '工信部〔2026〕1号',
      categoryId: 'policy-national',
      dataSourceName: null,
      expirationDay: 365,
    });
  });

  it('shows the number and validity only for policies', async () => {
    fake.api!.routes['GET /web-api/cms/v1/article/a-9'] = [{ ...POLICY, categoryId: 'news', categoryName: '行业动态' }];
    renderWithProviders(<ArticleFormDrawer target="a-9" onClose={vi.fn()} />);
    await waitFor(() => expect((screen.getByLabelText('标题') as HTMLInputElement).value).toBe(POLICY.title));
    expect(screen.queryByLabelText('文号')).toBeNull();
    expect(screen.queryByLabelText('有效期（天）')).toBeNull();
  });
});
