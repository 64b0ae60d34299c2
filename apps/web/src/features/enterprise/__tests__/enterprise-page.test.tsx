import {
  type CertificationApplication,
  CertificationMessage,
  type CertificationState,
  type EnterpriseProfile,
  EnterpriseMessage,
  type PrivateFileRef,
} from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { notify } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { EnterprisePage } from '../components/enterprise-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));

const API = '/web-api/console/v1/enterprise';
const VALID_CODE = '91350100M000100Y43';

const PROFILE: EnterpriseProfile = {
  id: 1,
  name: '徐州恒岳重工机械有限公司',
  creditCode: '',
  legalRepresentative: '张伟',
  address: '徐州市经济技术开发区高新路 8 号',
  industryCode: '34',
  industryLabel: 'C 制造业 / 34 通用设备制造业',
  regionCode: '320300',
  regionLabel: '江苏省 / 徐州市',
  contactName: '李娜',
  contactPhone: '0516-87654321',
  introduction: '工程机械整机与关键零部件制造',
  logo: '',
  certificationStatus: 'none',
  certifiedAt: null,
  certifiedFieldsLocked: false,
  editable: true,
};

const LICENCE: PrivateFileRef = { id: 11, name: '营业执照-旧.pdf', mime: 'application/pdf', bytes: 204800 };
const REJECTED: CertificationApplication = {
  id: 3,
  status: 'rejected',
  enterpriseName: '徐州恒岳重工有限公司',
  creditCode: VALID_CODE,
  legalRepresentative: '张伟',
  applicantRole: 'legal',
  applicantName: '张伟',
  licence: LICENCE,
  authorization: null,
  submittedAt: '2026-05-01 09:00:00',
  decidedAt: '2026-05-02 10:30:00',
  reviewerName: '王审核',
  reasons: ['name-mismatch', 'licence-unclear', 'other'],
  comment: '执照照片反光，请重新拍摄',
};

const admin = menusEntry(['enterprise', 'enterprise:manage'], { certificationStatus: 'none' });
const staff = menusEntry(['enterprise'], { certificationStatus: 'none' });

let profile: EnterpriseProfile;
let state: CertificationState;

beforeEach(() => {
  installRuntimeConfig();
  profile = PROFILE;
  state = { status: 'none', certifiedAt: null, applications: [] };
  fake.api = createFakeApi({
    [`GET ${API}/profile`]: () => [profile],
    [`PUT ${API}/profile`]: (body) => [{ ...profile, ...(body as object) }],
    [`GET ${API}/certification`]: () => [state],
    [`POST ${API}/certification`]: [{ id: 9 }],
    [`POST ${API}/certification/file`]: (body) => {
      const file = (body as FormData).get('file') as File;
      return [{ id: 21, name: file.name, mime: file.type, bytes: file.size }];
    },
    'GET /web-api/portal/v1/regions': [
      { code: '320000', name: '江苏省', children: [{ code: '320300', name: '徐州市' }] },
      { code: '110000', name: '北京市', children: [{ code: '110100', name: '北京市' }] },
    ],
  });
  vi.mocked(notify.error).mockClear();
  vi.mocked(notify.success).mockClear();
});

function renderPage(session = admin, url = '/console/enterprise') {
  const router = createMemoryRouter([{ path: '/console/enterprise', element: <EnterprisePage /> }], { initialEntries: [url] });
  const result = renderWithProviders(<RouterProvider router={router} />, { session });
  return { ...result, router };
}

const button = (name: string, root: HTMLElement = document.body) =>
  within(root).getByRole('button', { name: new RegExp(`^${name.split('').join('\\s*')}$`) });
const form = (name: string) => document.querySelector<HTMLElement>(`form#${name}`)!;
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
/** What a screen reader says after a field's name: the texts its aria-describedby points at. */
const description = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
/** 认证记录. */
const history = () => screen.getByRole('region', { name: '认证记录' });
/** The file input behind a material's field (the field's label names its button). */
const fileInput = (root: HTMLElement, label: string) =>
  within(root).getByLabelText(label).closest('.ant-form-item')!.querySelector<HTMLInputElement>('input[type="file"]')!;
const pick = (root: HTMLElement, label: string, file: File) => fireEvent.change(fileInput(root, label), { target: { files: [file] } });
const menusInvalidated = (queryClient: ReturnType<typeof renderPage>['queryClient']) =>
  queryClient.getQueryState(queryKeys.menus)?.isInvalidated === true;

describe('企业信息 基本信息', () => {
  it('members without enterprise:manage read the profile and cannot edit it', async () => {
    profile = { ...PROFILE, editable: false, creditCode: VALID_CODE };
    renderPage(staff);
    const view = await screen.findByRole('tabpanel', { name: '基本信息' });
    for (const text of [
      VALID_CODE,
      '张伟',
      'C 制造业 / 34 通用设备制造业',
      '江苏省 / 徐州市',
      '0516-87654321',
      '工程机械整机与关键零部件制造',
    ])
      expect(within(view).getByText(text)).toBeTruthy();
    expect(within(view).queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect(within(view).queryByRole('textbox')).toBeNull();
    expect(screen.getAllByText('未认证').length).toBeGreaterThan(0);
  });

  it('refuses a credit code with a wrong check character in the shared words, upper-cases what is typed, and sends nothing', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /编\s*辑/ }));
    const edit = form('enterprise-profile');
    type(edit, '统一社会信用代码', '91350100m000100y44');
    expect((within(edit).getByLabelText('统一社会信用代码') as HTMLInputElement).value).toBe('91350100M000100Y44');
    type(edit, '联系电话', '12345');
    fireEvent.click(button('保存', edit));
    await waitFor(() => expect(fieldErrors(edit)).toEqual([EnterpriseMessage.creditCodeCheck, EnterpriseMessage.contactPhoneInvalid]));
    expect(fake.api!.put).not.toHaveBeenCalled();
  });

  it('保存 sends the profile, reloads it and the session (menus), and goes back to the read view', async () => {
    const { queryClient } = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /编\s*辑/ }));
    const edit = form('enterprise-profile');
    type(edit, '统一社会信用代码', VALID_CODE.toLowerCase());
    type(edit, '联系电话', '13800000009');
    fireEvent.click(button('保存', edit));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(
        `${API}/profile`,
        {
          name: PROFILE.name,
          creditCode: VALID_CODE,
          legalRepresentative: '张伟',
          address: PROFILE.address,
          industryCode: '34',
          regionCode: '320300',
          contactName: '李娜',
          contactPhone: '13800000009',
          introduction: PROFILE.introduction,
          logo: '',
        },
        { silent: true },
      ),
    );
    await waitFor(() => expect(form('enterprise-profile')).toBeNull());
    expect(menusInvalidated(queryClient)).toBe(true);
    expect(fake.api!.get.mock.calls.filter(([url]) => url === `${API}/profile`).length).toBe(2);
  });

  it('shows the server’s refusal under the field it names', async () => {
    fake.api!.put.mockImplementationOnce(() => Promise.reject(new ApiError(EnterpriseMessage.nameTaken, 1, 400)));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /编\s*辑/ }));
    const edit = form('enterprise-profile');
    type(edit, '企业名称', '徐州另一家公司');
    fireEvent.click(button('保存', edit));
    await waitFor(() => expect(fieldErrors(edit)).toEqual([EnterpriseMessage.nameTaken]));
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('locks the name and the credit code while they are certified, and says why', async () => {
    profile = {
      ...PROFILE,
      creditCode: VALID_CODE,
      certificationStatus: 'certified',
      certifiedAt: '2026-05-03 10:00:00',
      certifiedFieldsLocked: true,
    };
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /编\s*辑/ }));
    const edit = form('enterprise-profile');
    const name = within(edit).getByLabelText('企业名称') as HTMLInputElement;
    const code = within(edit).getByLabelText('统一社会信用代码') as HTMLInputElement;
    expect(name.disabled).toBe(true);
    expect(code.disabled).toBe(true);
    expect(description(name)).toContain(EnterpriseMessage.certifiedFieldsLocked);
    expect(description(code)).toContain(EnterpriseMessage.certifiedFieldsLocked);
    expect((within(edit).getByLabelText('联系人') as HTMLInputElement).disabled).toBe(false);
  });
});

describe('企业信息 企业认证', () => {
  it('?tab=certification opens 企业认证; choosing a tab puts it in the URL', async () => {
    const { router } = renderPage(admin, '/console/enterprise?tab=certification');
    expect(await screen.findByRole('tab', { name: '企业认证', selected: true })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: '基本信息' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    fireEvent.click(screen.getByRole('tab', { name: '企业认证' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=certification'));
  });

  it('a first application: prefilled from the profile, the declaration required, the materials uploaded as private files', async () => {
    profile = { ...PROFILE, creditCode: VALID_CODE };
    const { queryClient } = renderPage(admin, '/console/enterprise?tab=certification');
    await screen.findByText(/提交营业执照等材料完成企业认证/);
    const apply = form('certification');
    expect((within(apply).getByLabelText('企业名称') as HTMLInputElement).value).toBe(PROFILE.name);
    expect((within(apply).getByLabelText('统一社会信用代码') as HTMLInputElement).value).toBe(VALID_CODE);
    expect((within(apply).getByLabelText('法定代表人') as HTMLInputElement).value).toBe('张伟');
    expect((within(apply).getByRole('radio', { name: '法定代表人本人' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(button('提交认证', apply));
    await waitFor(() =>
      expect(fieldErrors(apply)).toEqual([CertificationMessage.licenceRequired, CertificationMessage.declarationRequired]),
    );

    // Not a JPG, PNG or PDF: refused before sending.
    pick(apply, '营业执照', new File(['x'], '执照.docx', { type: 'application/msword' }));
    await waitFor(() => expect(fieldErrors(apply)).toContain(CertificationMessage.fileType));
    // Over 10 MB: refused before sending.
    const big = new File(['x'], '执照.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    pick(apply, '营业执照', big);
    await waitFor(() => expect(fieldErrors(apply)).toContain(CertificationMessage.fileTooLarge));
    expect(fake.api!.post).not.toHaveBeenCalled();

    pick(apply, '营业执照', new File(['%PDF-1.7'], '营业执照.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(within(apply).getByText('营业执照.pdf')).toBeTruthy());
    const [url, upload] = fake.api!.post.mock.calls[0]!;
    expect(url).toBe(`${API}/certification/file`);
    expect([...(upload as FormData).keys()]).toEqual(['purpose', 'file']);
    expect((upload as FormData).get('purpose')).toBe('licence');

    fireEvent.click(within(apply).getByRole('checkbox', { name: /本人承诺/ }));
    fireEvent.click(button('提交认证', apply));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        `${API}/certification`,
        {
          enterpriseName: PROFILE.name,
          creditCode: VALID_CODE,
          legalRepresentative: '张伟',
          applicantRole: 'legal',
          licenceFileId: 21,
          authorizationFileId: null,
          declaration: true,
        },
        { silent: true },
      ),
    );
    await waitFor(() => expect(notify.success).toHaveBeenCalled());
    expect(menusInvalidated(queryClient)).toBe(true);
  });

  it('an agent uploads the authorisation letter too, with the template to download', async () => {
    renderPage(admin, '/console/enterprise?tab=certification');
    await screen.findByText(/提交营业执照等材料完成企业认证/);
    const apply = form('certification');
    expect(within(apply).queryByLabelText('授权书')).toBeNull();
    fireEvent.click(within(apply).getByRole('radio', { name: '经办人（需上传授权书）' }));
    await waitFor(() => expect(within(apply).getByLabelText('授权书')).toBeTruthy());

    fireEvent.click(within(apply).getByRole('button', { name: /下载授权书模板/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalled());
    expect(fake.api!.blob).toHaveBeenCalledWith(`${API}/certification/authorization-template`);

    type(apply, '统一社会信用代码', VALID_CODE);
    fireEvent.click(within(apply).getByRole('checkbox', { name: /本人承诺/ }));
    fireEvent.click(button('提交认证', apply));
    await waitFor(() =>
      expect(fieldErrors(apply)).toEqual([CertificationMessage.licenceRequired, CertificationMessage.authorizationRequired]),
    );
  });

  it('after a rejection: each reason at its field, the rest above the form, and the resubmission starts from the rejected application', async () => {
    profile = { ...PROFILE, certificationStatus: 'rejected' };
    state = { status: 'rejected', certifiedAt: null, applications: [REJECTED] };
    renderPage(admin, '/console/enterprise?tab=certification');
    const apply = await waitFor(() => {
      const f = form('certification');
      if (!f) throw new Error('no form yet');
      return f;
    });
    const name = within(apply).getByLabelText('企业名称') as HTMLInputElement;
    expect(name.value).toBe('徐州恒岳重工有限公司');
    expect(description(name)).toContain('驳回原因：企业名称与执照不一致');
    expect(description(within(apply).getByLabelText('统一社会信用代码'))).not.toContain('驳回原因');
    expect(description(within(apply).getByLabelText('营业执照'))).toContain('驳回原因：营业执照不清晰');
    const alert = within(apply).getByRole('alert');
    expect(alert.textContent).toContain('驳回原因：其他');
    expect(alert.textContent).toContain('执照照片反光，请重新拍摄');
    // The rejected application's licence is kept until replaced.
    expect(within(apply).getByText('营业执照-旧.pdf')).toBeTruthy();

    // The timeline shows the decision with its reviewer and reasons.
    expect(within(history()).getByText('审核驳回')).toBeTruthy();
    expect(within(history()).getByText(/王审核/)).toBeTruthy();
    expect(within(history()).getByText('企业名称与执照不一致')).toBeTruthy();

    type(apply, '企业名称', PROFILE.name);
    pick(apply, '营业执照', new File(['%PDF-1.7'], '营业执照-新.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(within(apply).getByText('营业执照-新.pdf')).toBeTruthy());
    fireEvent.click(within(apply).getByRole('checkbox', { name: /本人承诺/ }));
    fireEvent.click(button('提交认证', apply));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        `${API}/certification`,
        {
          enterpriseName: PROFILE.name,
          creditCode: VALID_CODE,
          legalRepresentative: '张伟',
          applicantRole: 'legal',
          licenceFileId: 21,
          authorizationFileId: null,
          declaration: true,
        },
        { silent: true },
      ),
    );
  });

  it('while pending: 待审核 with the review time of the guide, no form, the materials to 查看', async () => {
    const pending: CertificationApplication = {
      ...REJECTED,
      id: 4,
      status: 'pending',
      decidedAt: null,
      reviewerName: '',
      reasons: [],
      comment: '',
    };
    profile = { ...PROFILE, certificationStatus: 'pending', certifiedFieldsLocked: true };
    state = { status: 'pending', certifiedAt: null, applications: [pending, REJECTED] };
    const open = vi.spyOn(window, 'open').mockReturnValue({ location: { href: '' }, opener: {}, close: vi.fn() } as unknown as Window);
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:licence');
    fake.api!.blob.mockImplementation(() => Promise.resolve(new Blob(['%PDF'], { type: 'application/pdf' })));
    renderPage(admin, '/console/enterprise?tab=certification');
    const status = await screen.findByRole('region', { name: '认证状态' });
    expect(within(status).getByText('待审核')).toBeTruthy();
    expect(status.textContent).toContain('1–3 个工作日');
    expect(form('certification')).toBeNull();
    expect(screen.getByText('等待平台审核')).toBeTruthy();

    fireEvent.click(screen.getAllByRole('button', { name: '查看营业执照 营业执照-旧.pdf' })[0]!);
    await waitFor(() => expect(fake.api!.blob).toHaveBeenCalledWith(`${API}/certification/file/11`));
    expect(open).toHaveBeenCalledWith('', '_blank');
    // Shown as the kind the server recognised, never as a page.
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect((created.mock.calls[0]![0] as Blob).type).toBe('application/pdf');
    open.mockRestore();
    created.mockRestore();
  });

  it('members without enterprise:manage see the status and the record, not the form', async () => {
    profile = { ...PROFILE, editable: false, certificationStatus: 'rejected' };
    state = { status: 'rejected', certifiedAt: null, applications: [{ ...REJECTED, licence: null }] };
    renderPage(staff, '/console/enterprise?tab=certification');
    const status = await screen.findByRole('region', { name: '认证状态' });
    expect(status.textContent).toContain('请联系企业管理员');
    expect(form('certification')).toBeNull();
    expect(screen.queryByRole('button', { name: /查看/ })).toBeNull();
    expect(within(history()).getByText('审核驳回')).toBeTruthy();
  });
});
