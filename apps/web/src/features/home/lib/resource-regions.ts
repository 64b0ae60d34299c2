/**
 * 资源地图 as a ranking: connected equipment and service outlets by region and province.
 * No drawn map: a map of China must come from a maintained, complete map data package, and a ranking
 * says the same without one. Devices in 万台; the regions add up to the totals shown beside them.
 */

export interface ProvinceResources {
  name: string;
  /** Connected devices, 万台. */
  devices: number;
  outlets: number;
}

export interface RegionResources {
  name: string;
  provinces: readonly ProvinceResources[];
}

export const RESOURCE_REGIONS: readonly RegionResources[] = [
  {
    name: '华东',
    provinces: [
      { name: '江苏', devices: 14.8, outlets: 286 },
      { name: '山东', devices: 9.6, outlets: 198 },
      { name: '浙江', devices: 7.9, outlets: 162 },
      { name: '安徽', devices: 5.6, outlets: 121 },
      { name: '福建', devices: 4.1, outlets: 92 },
      { name: '上海', devices: 2.4, outlets: 58 },
      { name: '江西', devices: 1.8, outlets: 43 },
    ],
  },
  {
    name: '华北',
    provinces: [
      { name: '河北', devices: 9.2, outlets: 156 },
      { name: '山西', devices: 6.1, outlets: 112 },
      { name: '内蒙古', devices: 5.3, outlets: 98 },
      { name: '北京', devices: 4.4, outlets: 86 },
      { name: '天津', devices: 3.5, outlets: 68 },
    ],
  },
  {
    name: '华南',
    provinces: [
      { name: '广东', devices: 12.6, outlets: 268 },
      { name: '广西', devices: 5.2, outlets: 121 },
      { name: '海南', devices: 2.0, outlets: 41 },
    ],
  },
  {
    name: '华中',
    provinces: [
      { name: '河南', devices: 6.8, outlets: 158 },
      { name: '湖北', devices: 4.6, outlets: 112 },
      { name: '湖南', devices: 3.7, outlets: 90 },
    ],
  },
  {
    name: '西南',
    provinces: [
      { name: '四川', devices: 4.2, outlets: 118 },
      { name: '重庆', devices: 2.1, outlets: 62 },
      { name: '云南', devices: 1.9, outlets: 58 },
      { name: '贵州', devices: 1.1, outlets: 32 },
      { name: '西藏', devices: 0.3, outlets: 10 },
    ],
  },
  {
    name: '西北',
    provinces: [
      { name: '陕西', devices: 2.9, outlets: 68 },
      { name: '新疆', devices: 1.8, outlets: 42 },
      { name: '甘肃', devices: 0.9, outlets: 22 },
      { name: '宁夏', devices: 0.4, outlets: 10 },
      { name: '青海', devices: 0.3, outlets: 8 },
    ],
  },
  {
    name: '东北',
    provinces: [
      { name: '辽宁', devices: 2.2, outlets: 64 },
      { name: '黑龙江', devices: 1.2, outlets: 36 },
      { name: '吉林', devices: 1.1, outlets: 30 },
    ],
  },
];

export interface RankedRegion extends RegionResources {
  devices: number;
  outlets: number;
}

/** One decimal, as the figures are given (sums of tenths drift in binary floating point). */
const tenths = (n: number) => Math.round(n * 10) / 10;

/** The regions with their totals, most devices first; their provinces likewise. */
export function rankRegions(regions: readonly RegionResources[]): RankedRegion[] {
  return regions
    .map((r) => ({
      ...r,
      provinces: [...r.provinces].sort((a, b) => b.devices - a.devices),
      devices: tenths(r.provinces.reduce((t, p) => t + p.devices, 0)),
      outlets: r.provinces.reduce((t, p) => t + p.outlets, 0),
    }))
    .sort((a, b) => b.devices - a.devices);
}

/** Totals over every region: devices (万台), outlets and provinces covered. */
export function resourceTotals(regions: readonly RegionResources[]) {
  const provinces = regions.flatMap((r) => r.provinces);
  return {
    devices: tenths(provinces.reduce((t, p) => t + p.devices, 0)),
    outlets: provinces.reduce((t, p) => t + p.outlets, 0),
    provinces: provinces.length,
  };
}
