import type { ConsoleIpRules } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { ConsoleAccessCard } from '../components/console-access-card';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const URL = '/web-api/console/v1/security/ip-rules';
let stored: ConsoleIpRules;

beforeEach(() => {
  installRuntimeConfig();
  stored = { rules: ['10.0.0.0/8', '2001:db8::/32'], currentIp: '203.0.113.7' };
  fake.api = createFakeApi({ [`GET ${URL}`]: () => [stored] });
  // The server keeps the entries it was sent (canonical form aside) and answers with its message.
  fake.api.put.mockImplementation((_url, body) => {
    stored = { ...stored, rules: (body as { rules: string[] }).rules.map((r) => r.trim()).filter(Boolean) };
    return Promise.resolve({ code: 20200, msg: '控制台访问规则已保存，立即生效', data: [] });
  });
  vi.mocked(notify.success).mockClear();
  vi.mocked(notify.error).mockClear();
});

const admin = menusEntry(['security', 'security:setting']);
const card = () => document.querySelector<HTMLElement>('.security-setting__access')!;
const field = () => screen.getByRole('textbox', { name: '允许访问的 IP 地址' }) as HTMLTextAreaElement;
const type = (value: string) => fireEvent.change(field(), { target: { value } });
const save = () => fireEvent.click(within(card()).getByRole('button', { name: /保\s*存/ }));
const loaded = () => waitFor(() => expect(field().value).toBe('10.0.0.0/8\n2001:db8::/32'));

describe('控制台访问 card', () => {
  it('shows the enterprise’s list one entry a line and the caller’s own address', async () => {
    renderWithProviders(<ConsoleAccessCard />, { session: admin });
    await loaded();
    expect(within(card()).getByText('203.0.113.7')).toBeTruthy();
    expect(within(card()).getByText(/留空为不限制/)).toBeTruthy();
  });

  it('加入当前地址 adds the caller’s address once', async () => {
    renderWithProviders(<ConsoleAccessCard />, { session: admin });
    await loaded();
    type('10.0.0.0/8\n\n');
    const add = within(card()).getByRole('button', { name: '加入当前地址' });
    fireEvent.click(add);
    fireEvent.click(add);
    await waitFor(() => expect(field().value).toBe('10.0.0.0/8\n203.0.113.7'));
  });

  it('refuses more than 50 entries before sending anything', async () => {
    renderWithProviders(<ConsoleAccessCard />, { session: admin });
    await loaded();
    type(Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`).join('\n'));
    save();
    await waitFor(() => expect(fieldErrors(card())).toEqual(['允许访问的 IP 地址最多 50 条']));
    expect(fake.api!.put).not.toHaveBeenCalled();
  });

  it('保存 sends the lines as typed, so the server’s line numbers are the user’s, and reloads the saved list', async () => {
    renderWithProviders(<ConsoleAccessCard />, { session: admin });
    await loaded();
    type('10.0.0.0/8\n\n 203.0.113.7 \n\n');
    const gets = fake.api!.get.mock.calls.length;
    save();
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(URL, { rules: ['10.0.0.0/8', '', ' 203.0.113.7 '] }, { silent: true }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('控制台访问规则已保存，立即生效'));
    await waitFor(() => expect(fake.api!.get.mock.calls.length).toBeGreaterThan(gets));
    await waitFor(() => expect(field().value).toBe('10.0.0.0/8\n203.0.113.7'));
  });

  it('shows the server’s refusal under the field, without a toast', async () => {
    const refusal = '当前 IP 地址（203.0.113.7）不在列表内，保存后将无法访问控制台，请先加入该地址';
    fake.api!.put.mockImplementation(() => Promise.reject(new ApiError(refusal, 1, 400)));
    renderWithProviders(<ConsoleAccessCard />, { session: admin });
    await loaded();
    type('10.0.0.0/8');
    save();
    await waitFor(() => expect(fieldErrors(card())).toEqual([refusal]));
    expect(field().value).toBe('10.0.0.0/8');
    expect(notify.error).not.toHaveBeenCalled();
  });
});
