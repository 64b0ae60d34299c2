import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { SelfTestChecklist } from '@/components/self-test-checklist';
import { FAILED_SELF_TEST, PASSED_SELF_TEST } from './fixtures';

/** Each step's row: its status (the icon's name), title, status text and detail. */
function steps() {
  return within(screen.getByRole('list', { name: '自检步骤' }))
    .getAllByRole('listitem')
    .map((item) => ({
      icon: within(item).getByRole('img').getAttribute('aria-label'),
      text: item.textContent,
    }));
}

describe('接入自检 checklist', () => {
  it('shows passed, failed and skipped steps in order, each with its icon and the exact detail', () => {
    renderWithProviders(<SelfTestChecklist result={FAILED_SELF_TEST} />);
    expect(screen.getByText('接入自检未通过，请按各检查项的说明修改后重试')).toBeTruthy();
    expect(screen.getByText('未通过：注销地址可响应')).toBeTruthy();
    expect(screen.getByText('服务地址：https://erp.hengyue.example/')).toBeTruthy();
    expect(screen.getByText('测试账号：admin')).toBeTruthy();
    expect(screen.getByText('时间：2026-11-24 10:00:00')).toBeTruthy();

    const rows = steps();
    expect(rows.map((r) => r.icon)).toEqual(['通过', '通过', '未通过', '通过', '通过', '已跳过']);
    for (const [i, step] of FAILED_SELF_TEST.steps.entries()) {
      expect(rows[i]!.text).toContain(step.title);
      expect(rows[i]!.text).toContain(step.detail);
    }
    expect(rows[2]!.text).toContain('POST https://erp.hengyue.example/cas/logout 失败：连接被拒绝（ECONNREFUSED）');
    // Nothing was released: the table says so.
    expect(within(screen.getByRole('table')).getByText('票据校验未返回属性')).toBeTruthy();
  });

  it('a passing run shows every step passed and the released attributes in a table', () => {
    renderWithProviders(<SelfTestChecklist result={PASSED_SELF_TEST} />);
    expect(screen.getByText('接入自检通过')).toBeTruthy();
    expect(steps().every((r) => r.icon === '通过')).toBe(true);
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['name', '张伟'],
      ['email', 'zhangwei@hengyue.example'],
      ['groups', '研发部、质量部'],
    ]);
  });

  it('lists no attributes when no ticket was validated', () => {
    const steps = FAILED_SELF_TEST.steps.map((s) =>
      s.key === 'signIn' || s.key === 'validate' ? { ...s, status: 'skipped' as const, detail: '未能签发服务票据，已跳过' } : s,
    );
    renderWithProviders(<SelfTestChecklist result={{ ...FAILED_SELF_TEST, steps }} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('释放的属性')).toBeNull();
  });
});
