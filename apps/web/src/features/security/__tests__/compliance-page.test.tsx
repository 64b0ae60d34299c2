import type { ComplianceReport } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '@/lib/download';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { CompliancePage } from '../components/compliance-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));

const COMPLIANCE = '/web-api/console/v1/security/compliance';
const REPORT: ComplianceReport = {
  enterpriseName: '徐州恒岳重工机械有限公司',
  evaluatedAt: '2026-11-29 10:00:00',
  auditRetentionDays: 180,
  scores: [
    { framework: 'djcp', title: '等保 2.0 第三级（GB/T 22239-2019 安全计算环境）', passed: 1, total: 2, score: 50 },
    { framework: 'asvs', title: 'OWASP ASVS 5.0 第二级（V6 身份认证、V7 会话管理）', passed: 1, total: 1, score: 100 },
  ],
  controls: [
    {
      id: 'djcp-a-complexity',
      framework: 'djcp',
      clause: 'GB/T 22239-2019 8.1.4.1 身份鉴别 a)',
      title: '口令复杂度',
      requirement: '密码最短 8 位，且至少包含三类字符',
      current: '密码最短长度 6 位；密码必须包含 不限',
      passed: false,
      remedy: '在安全设置中将密码最短长度设为不少于 8 位，并勾选至少三类必须包含的字符',
      inSettings: true,
    },
    {
      id: 'djcp-audit-c',
      framework: 'djcp',
      clause: 'GB/T 22239-2019 8.1.4.3 安全审计 c)',
      title: '审计记录保存不少于六个月',
      requirement: '登录日志与操作日志保存不少于 180 天',
      current: '保存 180 天',
      passed: true,
      remedy: '',
      inSettings: false,
    },
    {
      id: 'asvs-6.2.1',
      framework: 'asvs',
      clause: 'ASVS 5.0 6.2.1',
      title: '密码最短 8 位',
      requirement: '用户设置的密码不少于 8 位',
      current: '密码最短长度 8 位',
      passed: true,
      remedy: '',
      inSettings: true,
    },
  ],
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({ [`GET ${COMPLIANCE}`]: [REPORT] });
  vi.mocked(saveBlob).mockClear();
});

const renderPage = () =>
  renderWithProviders(
    <MemoryRouter>
      <CompliancePage />
    </MemoryRouter>,
    { session: menusEntry(['security', 'security:compliance']) },
  );

describe('安全合规 page', () => {
  it('shows each baseline’s score and controls, a failing one with what to change and a link to 安全设置', async () => {
    renderPage();
    const djcp = await screen.findByRole('table', { name: /等保 2.0 第三级/ });
    expect(screen.getByRole('progressbar', { name: /等保 2.0 第三级.*得分/ }).textContent).toContain('50分');
    expect(screen.getByText('2 项控制中 1 项通过')).toBeTruthy();
    const failing = within(djcp).getByRole('row', { name: /口令复杂度/ });
    expect(within(failing).getByText('未通过')).toBeTruthy();
    expect(within(failing).getByText('在安全设置中将密码最短长度设为不少于 8 位，并勾选至少三类必须包含的字符')).toBeTruthy();
    expect(within(failing).getByRole('link', { name: '前往安全设置' }).getAttribute('href')).toBe('/console/security/setting');
    const passing = within(djcp).getByRole('row', { name: /审计记录保存不少于六个月/ });
    expect(within(passing).getByText('通过')).toBeTruthy();
    expect(within(passing).queryByRole('link')).toBeNull();
    expect(within(screen.getByRole('table', { name: /OWASP ASVS/ })).getAllByRole('row')).toHaveLength(2);
  });

  it('downloads the CSV and the evidence pack of the chosen period', async () => {
    renderPage();
    await screen.findByRole('table', { name: /等保 2.0 第三级/ });
    fireEvent.click(screen.getByRole('button', { name: /导出 CSV/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(`${COMPLIANCE}/export`);
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toMatch(/^安全合规-\d{14}\.csv$/);

    fireEvent.click(screen.getByRole('button', { name: /导出证据包/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(2));
    const [url, options] = fake.api!.blob.mock.calls[1]!;
    expect(url).toBe(`${COMPLIANCE}/evidence`);
    const { start, end } = (options?.params ?? {}) as { start: string; end: string };
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The default period: the last 30 days, today included.
    expect((Date.parse(end) - Date.parse(start)) / 86_400_000).toBe(29);
    expect(vi.mocked(saveBlob).mock.calls[1]?.[1]).toBe(`安全合规证据包-${start}-${end}.pdf`);
  });
});
