import type { RegionOption } from '@portal/shared';
import { areaList } from '@vant/area-data';

/** 直辖市 (GB/T 2260 provinces 11, 12, 31, 50): their second level is districts and counties, not cities. */
const MUNICIPALITIES = new Set(['110000', '120000', '310000', '500000']);

const provinceOf = (code: string) => `${code.slice(0, 2)}0000`;

/**
 * 所在地区: the provinces with their cities, from @vant/area-data (GB/T 2260 codes; its
 * integer-like keys enumerate in ascending code order).
 *
 * A 直辖市 gets one city, its own name on its districts' parent code (北京市 → 110100 北京市), which
 * is what GB/T 2260 calls 市辖区; Chongqing's second entry in the package, 500200 县, folds into
 * 500100 重庆市, because its counties belong to the same municipality. Cities of the other provinces
 * are the package's, 省直辖县级行政区划 (429000 省直辖县…) included.
 */
function buildRegions(): RegionOption[] {
  const cities = Object.entries(areaList.city_list);
  return Object.entries(areaList.province_list).map(([code, name]) => ({
    code,
    name,
    children: MUNICIPALITIES.has(code)
      ? [{ code: `${code.slice(0, 2)}0100`, name }]
      : cities.filter(([city]) => provinceOf(city) === code).map(([city, cityName]) => ({ code: city, name: cityName })),
  }));
}

/** The province and city options, built once: the package's data changes only with a release. */
export const REGIONS: readonly RegionOption[] = buildRegions();

const CITY_LABELS = new Map(
  REGIONS.flatMap((province) =>
    (province.children ?? []).map((city) => [
      city.code,
      // “江苏省 / 徐州市”; a 直辖市 is named once (“北京市”).
      city.name === province.name ? province.name : `${province.name} / ${city.name}`,
    ]),
  ),
);

/** A city code among the options (a province's code, an old or a county code is not). */
export function isRegionCode(code: string): boolean {
  return CITY_LABELS.has(code);
}

/** “江苏省 / 徐州市” of a city code, '' for an empty or unknown one. */
export function regionLabel(code: string): string {
  return CITY_LABELS.get(code) ?? '';
}
