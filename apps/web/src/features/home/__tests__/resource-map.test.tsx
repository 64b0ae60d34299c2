import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ResourceMapSection } from '../components/showcase-sections';
import { RESOURCE_REGIONS, rankRegions, resourceTotals } from '../lib/resource-regions';

describe('资源地图 as a regional ranking', () => {
  it('the regions add up to the totals shown: 130 万台, 2 830 outlets, 31 provincial divisions', () => {
    expect(resourceTotals(RESOURCE_REGIONS)).toEqual({ devices: 130, outlets: 2830, provinces: 31 });
    const names = RESOURCE_REGIONS.flatMap((r) => r.provinces.map((p) => p.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it('ranks the regions and their provinces by connected devices', () => {
    const ranked = rankRegions(RESOURCE_REGIONS);
    expect(ranked.map((r) => [r.name, r.devices, r.outlets])).toEqual([
      ['华东', 46.2, 960],
      ['华北', 28.5, 520],
      ['华南', 19.8, 430],
      ['华中', 15.1, 360],
      ['西南', 9.6, 280],
      ['西北', 6.3, 150],
      ['东北', 4.5, 130],
    ]);
    for (const region of ranked) {
      const devices = region.provinces.map((p) => p.devices);
      expect(devices).toEqual([...devices].sort((a, b) => b - a));
    }
  });

  it('shows a ranked list whose rows open to their provinces, and no drawn map', () => {
    const { container } = render(<ResourceMapSection />);
    const section = screen.getByRole('region', { name: '资源地图' });
    const rows = within(within(section).getByRole('list', { name: '各区域接入设备与服务网点排名' })).getAllByRole('listitem');
    expect(rows).toHaveLength(7);
    expect(rows[0]!.textContent).toContain('华东46.2 万台 · 960 个网点');
    const table = within(rows[0]!).getByRole('table', { name: '华东各省级行政区', hidden: true });
    expect(within(table).getAllByRole('row', { hidden: true })).toHaveLength(8);
    expect(within(section).getByText('130 万台')).toBeTruthy();
    expect(container.querySelector('svg')).toBeNull();
  });
});
