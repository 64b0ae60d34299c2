import {
  CertificationMessage,
  type CertificationApplication,
  type CertificationReviewDetail,
  type CertificationReviewRow,
  type EnterpriseProfile,
} from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider, Modal } from 'antd';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { type FakeReply, installFakeApi, okReply } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { CertificationReviewPage } from '../components/certification-review-page';
import { INITIAL_REVIEW_FILTERS, maskPhone, reviewListQuery } from '../lib/review-query';

vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/certification';
const FILE = '/web-api/console/v1/enterprise/certification/file';

const PENDING: CertificationReviewRow = {
  id: 11,
  enterpriseId: 4,
  enterpriseName: '常州瑞驰液压科技有限公司',
  creditCode: '91320400MA1W8XKQ3T',
  applicantName: '周敏',
  applicantPhone: '13912345678',
  status: 'pending',
  submittedAt: '2026-11-20 09:30:00',
  decidedAt: null,
  reviewerName: '',
};
const APPLICATION: CertificationApplication = {
  id: 11,
  status: 'pending',
  enterpriseName: '常州瑞驰液压科技有限公司',
  creditCode: '91320400MA1W8XKQ3T',
  legalRepresentative: '周建国',
  applicantRole: 'agent',
  applicantName: '周敏',
  licence: { id: 31, name: '营业执照.png', mime: 'image/png', bytes: 204_800 },
  authorization: { id: 32, name: '授权书.pdf', mime: 'application/pdf', bytes: 102_400 },
  submittedAt: '2026-11-20 09:30:00',
  decidedAt: null,
  reviewerName: '',
  reasons: [],
  comment: '',
};
const PROFILE: EnterpriseProfile = {
  id: 4,
  name: '常州瑞驰液压科技有限公司',
  creditCode: '91320400MA1W8XKQ3T',
  legalRepresentative: '周建国',
  address: '常州市武进区湖塘镇工业园 8 号',
  industryCode: '34',
  industryLabel: 'C 制造业 / 34 通用设备制造业',
  regionCode: '320400',
  regionLabel: '江苏省 / 常州市',
  contactName: '周敏',
  contactPhone: '0519-86001234',
  introduction: '',
  logo: '',
  certificationStatus: 'pending',
  certifiedAt: null,
  certifiedFieldsLocked: true,
  editable: false,
};
const EARLIER: CertificationApplication = {
  ...APPLICATION,
  id: 9,
  status: 'rejected',
  enterpriseName: '常州瑞驰液压科技',
  submittedAt: '2026-11-02 14:00:00',
  decidedAt: '2026-11-03 10:00:00',
  reviewerName: '审核员王磊',
  reasons: ['name-mismatch', 'other'],
  comment: '执照照片反光',
};
const DETAIL: CertificationReviewDetail = { application: APPLICATION, applicantPhone: '13912345678', profile: PROFILE, history: [EARLIER] };
const APPROVED: CertificationReviewDetail = {
  ...DETAIL,
  application: { ...APPLICATION, status: 'approved', reviewerName: '审核员王磊', decidedAt: '2026-11-21 10:00:00' },
  profile: { ...PROFILE, certificationStatus: 'certified' },
};

interface Call {
  method: string;
  path: string;
  params?: unknown;
  body?: unknown;
}

/** The server as the page sees it, through the real API client; `decided` turns the application approved. */
function fakeServer({ decision }: { decision?: () => FakeReply } = {}) {
  const calls: Call[] = [];
  let decided = false;
  installFakeApi((method, path, config) => {
    calls.push({ method, path, params: config.params, body: typeof config.body === 'string' ? JSON.parse(config.body) : undefined });
    if (method === 'GET' && path === `${BASE}/page/list`) return okReply([{ rows: [PENDING], total: 1 }]);
    if (method === 'GET' && path === `${BASE}/11`) return okReply([decided ? APPROVED : DETAIL]);
    if (method === 'GET' && path === `${FILE}/31`) return { body: new Blob(['png'], { type: 'image/png' }) };
    if (method === 'POST' && path === `${BASE}/11/decision`) {
      decided = true;
      return decision?.() ?? okReply([{}]);
    }
    return { status: 404, body: { code: 1, msg: '请求的接口不存在' } };
  });
  return {
    calls,
    lists: () => calls.filter((c) => c.path === `${BASE}/page/list`).map((c) => c.params),
    details: () => calls.filter((c) => c.method === 'GET' && c.path === `${BASE}/11`).length,
    decisions: () => calls.filter((c) => c.path === `${BASE}/11/decision`).map((c) => c.body),
  };
}

// happy-dom never ends a CSS transition: without motion, a closed dialog leaves the page as it does in a browser.
const renderPage = () =>
  renderWithProviders(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <CertificationReviewPage />
    </ConfigProvider>,
    { session: reviewer },
  );

const reviewer = menusEntry(['certification'], { enterpriseId: 1, enterpriseName: 'Engineering e+ 平台运营中心' });

beforeEach(() => {
  installRuntimeConfig();
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:licence');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.mocked(notify.error).mockClear();
  vi.mocked(notify.success).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
  vi.restoreAllMocks();
});

async function openDetail() {
  const row = await screen.findByRole('row', { name: /常州瑞驰/ });
  fireEvent.click(within(row).getByRole('button', { name: /审\s*核/ }));
  const drawer = await screen.findByRole('dialog', { name: /认证审核：常州瑞驰液压科技有限公司/ });
  await within(drawer).findByRole('region', { name: '申请信息' });
  return drawer;
}

async function openRejectDialog(drawer: HTMLElement) {
  fireEvent.click(within(drawer).getByRole('button', { name: /驳\s*回/ }));
  return screen.findByRole('dialog', { name: '驳回认证申请' });
}

const confirmReject = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByRole('button', { name: /驳\s*回/ }));

describe('认证审核 queue → query parameters', () => {
  it('asks for 待审核 by default, from offset 0', () => {
    expect(reviewListQuery(INITIAL_REVIEW_FILTERS)).toEqual({ offset: 0, limit: 20, status: 'pending' });
  });

  it('sends submission days as whole days (00:00:00 to 23:59:59), the trimmed name, and "" for every status', () => {
    const range = [dayjs('2026-11-20 15:20:00'), dayjs('2026-11-22 08:00:00')] as const;
    expect(reviewListQuery({ status: 'all', range, keyword: ' 瑞驰 ', page: 3, limit: 10 })).toEqual({
      offset: 20,
      limit: 10,
      status: '',
      keyword: '瑞驰',
      filterStartTime: '2026-11-20 00:00:00',
      filterEndTime: '2026-11-22 23:59:59',
    });
  });

  it('masks the middle of a phone number', () => {
    expect(maskPhone('13912345678')).toBe('139****5678');
    expect(maskPhone('12345')).toBe('12345');
  });
});

describe('认证审核 page', () => {
  it('lists the pending applications with name, credit code, applicant, masked phone, time, status and reviewer', async () => {
    const server = fakeServer();
    renderPage();
    const row = await screen.findByRole('row', { name: /常州瑞驰/ });
    for (const text of ['91320400MA1W8XKQ3T', '周敏', '139****5678', '2026-11-20 09:30:00', '待审核'])
      expect(within(row).getByText(text)).toBeTruthy();
    expect(within(row).queryByText('13912345678')).toBeNull();
    for (const header of ['企业名称', '统一社会信用代码', '申请人', '手机号', '提交时间', '状态', '审核人', '操作'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(server.lists()).toEqual([{ offset: 0, limit: 20, status: 'pending' }]);
  });

  it('filters by status and name from page 1; 重置 goes back to 待审核', async () => {
    const server = fakeServer();
    renderPage();
    await screen.findByRole('row', { name: /常州瑞驰/ });
    await chooseOption(screen.getByRole('combobox', { name: '状态' }), '已驳回');
    fireEvent.change(screen.getByRole('textbox', { name: '企业名称或信用代码' }), { target: { value: ' 瑞驰 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(server.lists().at(-1)).toEqual({ offset: 0, limit: 20, status: 'rejected', keyword: '瑞驰' }));

    await chooseOption(screen.getByRole('combobox', { name: '状态' }), '全部状态');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(server.lists().at(-1)).toEqual({ offset: 0, limit: 20, status: '', keyword: '瑞驰' }));

    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(server.lists().at(-1)).toEqual({ offset: 0, limit: 20, status: 'pending' }));
  });

  it('查询 or 重置 with the filters the queue already has asks the server again (applications arrive meanwhile)', async () => {
    const server = fakeServer();
    renderPage();
    await screen.findByRole('row', { name: /常州瑞驰/ });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(server.lists()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(server.lists()).toHaveLength(3));
    expect(new Set(server.lists().map((q) => JSON.stringify(q)))).toEqual(
      new Set([JSON.stringify({ offset: 0, limit: 20, status: 'pending' })]),
    );
  });

  it('审核 shows the submitted fields beside the profile, the applicant and role, earlier applications and the materials', async () => {
    fakeServer();
    renderPage();
    const drawer = await openDetail();

    const compare = within(within(drawer).getByRole('region', { name: '申请信息' })).getByRole('table');
    const name = within(compare).getByRole('row', { name: /企业名称/ });
    expect(within(name).getAllByText('常州瑞驰液压科技有限公司')).toHaveLength(2);
    expect(within(within(compare).getByRole('row', { name: /法定代表人/ })).getAllByText('周建国')).toHaveLength(2);

    const applicant = within(drawer).getByRole('region', { name: '申请人' });
    for (const text of ['周敏', '13912345678', '经办人（持授权书）', '2026-11-20 09:30:00'])
      expect(within(applicant).getByText(text)).toBeTruthy();

    const profile = within(drawer).getByRole('region', { name: '企业信息' });
    for (const text of ['常州市武进区湖塘镇工业园 8 号', 'C 制造业 / 34 通用设备制造业', '江苏省 / 常州市', '0519-86001234'])
      expect(within(profile).getByText(text)).toBeTruthy();

    const history = within(drawer).getByRole('region', { name: '历史申请（1）' });
    expect(within(history).getByText('已驳回')).toBeTruthy();
    expect(within(history).getByText(/企业名称与执照不一致、其他；执照照片反光/)).toBeTruthy();

    const materials = within(drawer).getByRole('region', { name: '认证材料' });
    expect(within(materials).getByRole('tab', { name: '营业执照' })).toBeTruthy();
    expect(within(materials).getByRole('tab', { name: '授权书' })).toBeTruthy();
    expect(await within(materials).findByRole('img', { name: '营业执照.png' })).toBeTruthy();
    for (const control of ['放大', '缩小', '向左旋转', '向右旋转', '还原'])
      expect(within(materials).getByRole('button', { name: control })).toBeTruthy();
  });

  it('通过 asks for confirmation, sends the approval, then the queue and the detail reload', async () => {
    const server = fakeServer();
    renderPage();
    const drawer = await openDetail();
    const listsBefore = server.lists().length;
    fireEvent.click(within(drawer).getByRole('button', { name: /通\s*过/ }));
    const confirm = await screen.findByRole('dialog', { name: '通过认证' });
    expect(within(confirm).getByText(/确定通过「常州瑞驰液压科技有限公司」的企业认证吗/)).toBeTruthy();
    expect(server.decisions()).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: /通\s*过/ }));

    await waitFor(() => expect(server.decisions()).toEqual([{ decision: 'approve', reasons: [], comment: '' }]));
    await waitFor(() => expect(server.lists().length).toBeGreaterThan(listsBefore));
    // The detail now shows the decision, and 通过/驳回 are gone.
    const result = await within(drawer).findByRole('region', { name: '审核结果' });
    expect(within(result).getByText('审核员王磊')).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: /通\s*过/ })).toBeNull();
    expect(notify.success).toHaveBeenCalledWith('操作成功');
  });

  it('驳回 needs a reason, and a comment with 其他; the call carries the reasons in order and the trimmed comment', async () => {
    const server = fakeServer();
    renderPage();
    const dialog = await openRejectDialog(await openDetail());

    confirmReject(dialog);
    expect(await within(dialog).findByText(CertificationMessage.reasonRequired)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('checkbox', { name: '其他' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '营业执照不清晰' }));
    await waitFor(() => expect(within(dialog).queryByText(CertificationMessage.reasonRequired)).toBeNull());
    confirmReject(dialog);
    expect(await within(dialog).findByText(CertificationMessage.commentRequired)).toBeTruthy();
    expect(server.decisions()).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: '说明' }), { target: { value: '  执照照片反光，请重新拍摄  ' } });
    confirmReject(dialog);
    await waitFor(() =>
      expect(server.decisions()).toEqual([
        { decision: 'reject', reasons: ['licence-unclear', 'other'], comment: '执照照片反光，请重新拍摄' },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '驳回认证申请' })).toBeNull());
  });

  it('驳回 without 其他 needs no comment', async () => {
    const server = fakeServer();
    renderPage();
    const dialog = await openRejectDialog(await openDetail());
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '缺少授权书' }));
    confirmReject(dialog);
    await waitFor(() => expect(server.decisions()).toEqual([{ decision: 'reject', reasons: ['authorization-missing'], comment: '' }]));
  });

  it('an application decided meanwhile (409): the server’s message shows, the dialog closes and the queue and detail reload', async () => {
    const server = fakeServer({ decision: () => ({ status: 409, body: { code: 1, msg: CertificationMessage.notPending } }) });
    renderPage();
    const drawer = await openDetail();
    const listsBefore = server.lists().length;
    const detailsBefore = server.details();
    const dialog = await openRejectDialog(drawer);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '营业执照已过期' }));
    confirmReject(dialog);

    await waitFor(() => expect(notify.error).toHaveBeenCalledWith(CertificationMessage.notPending, 3));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '驳回认证申请' })).toBeNull());
    await waitFor(() => expect(server.lists().length).toBeGreaterThan(listsBefore));
    await waitFor(() => expect(server.details()).toBeGreaterThan(detailsBefore));
    expect(await within(drawer).findByRole('region', { name: '审核结果' })).toBeTruthy();
    expect(notify.success).not.toHaveBeenCalled();
  });
});
