import {
  CheckCircleOutlined,
  FileSearchOutlined,
  QrcodeOutlined,
  QuestionCircleOutlined,
  ReloadOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Authority, type IdentifierStats, STATS_RANGES, type StatsExportTable, type StatsRange } from '@portal/shared';
import { Button, Col, Grid, Result, Row, Segmented, Select, Skeleton, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConsolePage } from '@/components/console-page';
import { usePermission } from '@/components/permission';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { useExportIdentifierStats, useIdentifierStats } from '../api/identifier-stats';
import { channelTotals, dailyOption, hasLookups } from '../lib/stats-charts';
import {
  type StatsView,
  exportFilename,
  formatAverage,
  formatCount,
  formatRate,
  readStatsView,
  shareOf,
  statsQuery,
  statsSearch,
} from '../lib/stats-view';
import { StatsCard, StatsEmpty } from './stats-card';
import { StatsChart } from './stats-chart';
import { RegionRanking, TopHandlesTable, TopMissingTable, TopValuesTable } from './stats-tables';
import './identifier-stats.css';

/** Where template items are marked 计入统计 (menu 标识管理 → 前缀与模板). */
const TEMPLATE_PAGE = '/console/identifier/template';
const RANGE_OPTIONS = STATS_RANGES.map((days) => ({ label: `近 ${days} 天`, value: days }));
const loading = <Skeleton active paragraph={{ rows: 6 }} />;

interface Tile {
  label: string;
  value: string | undefined;
  /** A line under the value; its parts each stay whole when the line wraps. */
  note?: string | string[];
  icon: ReactNode;
  tone: string;
}

function tilesOf(data: IdentifierStats | undefined): Tile[] {
  const totals = data?.totals;
  const qr = data && channelTotals(data.daily).qr;
  const missing = totals && totals.notFound + totals.malformed;
  return [
    {
      label: '查询总量',
      value: totals && formatCount(totals.lookups),
      note: data && `日均 ${formatAverage(data.totals.lookups / Math.max(1, data.daily.length))} 次`,
      icon: <FileSearchOutlined />,
      tone: 'blue',
    },
    {
      label: '找到',
      value: totals && formatCount(totals.found),
      note: totals && `占 ${shareOf(totals.found, totals.lookups)}`,
      icon: <CheckCircleOutlined />,
      tone: 'green',
    },
    {
      label: '扫码查询',
      value: qr === undefined ? undefined : formatCount(qr),
      note: totals && qr !== undefined ? `占 ${shareOf(qr, totals.lookups)}` : undefined,
      icon: <QrcodeOutlined />,
      tone: 'cyan',
    },
    {
      label: '未找到',
      value: missing === undefined ? undefined : formatCount(missing),
      note: totals && [`未登记 ${formatCount(totals.notFound)}`, `格式错误 ${formatCount(totals.malformed)}`],
      icon: <QuestionCircleOutlined />,
      tone: 'amber',
    },
    {
      label: '未找到率',
      value: totals && formatRate(totals.notFoundRate),
      note: totals && '含格式错误的查询',
      icon: <WarningOutlined />,
      tone: 'red',
    },
  ];
}

function Tiles({ tiles }: { tiles: Tile[] }) {
  return (
    <ul className="identifier-stats__tiles" aria-label="统计概览">
      {tiles.map((t) => (
        <li key={t.label} className={`identifier-stats__tile identifier-stats__tile--${t.tone}`} aria-label={t.label}>
          <span className="identifier-stats__tile-icon" aria-hidden="true">
            {t.icon}
          </span>
          <div className="identifier-stats__tile-text">
            <span className="identifier-stats__tile-label">{t.label}</span>
            <strong className="identifier-stats__tile-value">{t.value ?? '—'}</strong>
            {t.note && (
              <span className="identifier-stats__tile-note">
                {typeof t.note === 'string'
                  ? t.note
                  : t.note.map((part, i) => (
                      <span key={part}>
                        {i > 0 && ' · '}
                        <span className="identifier-stats__tile-part">{part}</span>
                      </span>
                    ))}
              </span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Whose lookups these are, in words: the enterprise's prefixes, one prefix, or the whole node. */
function scopeText(data: IdentifierStats, prefix: string | undefined): string {
  const period = `${data.from} 至 ${data.to}，按北京时间统计。`;
  if (prefix) return `前缀 ${prefix} 下标识的查询情况，${period}`;
  if (data.scope === 'node') return `本节点全部标识的查询情况，含未登记前缀与格式错误的查询，${period}`;
  const own = data.prefixes.length <= 3 ? `（${data.prefixes.join('、')}）` : ` ${data.prefixes.length} 个`;
  return `本企业标识前缀${own}的查询情况，${period}`;
}

/**
 * 标识统计: who looks up the enterprise's identifiers, how and where. Over 7, 30 or 90 days
 * and one or every prefix of the user's scope (both in the URL): totals and the not-found rate, lookups
 * per day by channel (网页查询, 扫码, Handle API, 上游转发), a province ranking, the top identifiers and
 * template values, and the handles looked up in vain; each table downloads as CSV. Operators see the
 * whole node (运营统计), failed lookups under unknown prefixes included.
 */
export function IdentifierStatsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const view = readStatsView(searchParams);
  const query = statsQuery(view);
  const stats = useIdentifierStats(query);
  const exporter = useExportIdentifierStats();
  const can = usePermission();
  const data = stats.data;
  const scope = data?.scope ?? (can([Authority.IdentifierAll]) ? 'node' : 'owner');
  const title = scope === 'node' ? '运营统计' : '标识统计';
  const daily = useMemo(() => (data ? dailyOption(data.daily) : undefined), [data]);
  // Beside the province ranking the chart takes the ranking's height; alone on a narrower screen, less.
  const chartHeight = (Grid.useBreakpoint().xl ?? true) ? 360 : 280;

  const show = (next: StatsView) => setSearchParams(statsSearch(next));
  const download = async (table: StatsExportTable) => {
    if (!data) return;
    try {
      await exporter.mutateAsync({ table, ...query, filename: exportFilename(table, data) });
      notify.success('导出成功');
    } catch {
      // The API client has shown the server's message.
    }
  };
  const exportOf = (table: StatsExportTable, rows: number) => ({
    onExport: () => void download(table),
    exporting: exporter.isPending && exporter.variables.table === table,
    exportable: data !== undefined && rows > 0,
  });

  const prefixOptions = [
    { value: '', label: scope === 'node' ? '全部前缀' : '本企业全部前缀' },
    ...(data?.prefixes ?? []).filter(Boolean).map((p) => ({ value: p, label: p })),
  ];
  const controls = (
    <>
      <Segmented<StatsRange> aria-label="统计范围" options={RANGE_OPTIONS} value={view.days} onChange={(days) => show({ ...view, days })} />
      <Select
        aria-label="标识前缀"
        className="identifier-stats__prefix"
        showSearch
        options={prefixOptions}
        value={view.prefix ?? ''}
        onChange={(prefix: string) => show({ ...view, prefix: prefix || undefined })}
      />
      <Button icon={<ReloadOutlined />} loading={stats.isFetching} onClick={() => void stats.refetch()}>
        刷新
      </Button>
    </>
  );
  const heading = (
    <div className="identifier-stats__heading">
      <Typography.Title level={4}>{title}</Typography.Title>
      {(data || !stats.isError) && <Typography.Text type="secondary">{data ? scopeText(data, view.prefix) : '正在统计…'}</Typography.Text>}
    </div>
  );

  if (stats.isError && !data) {
    const reason = stats.error instanceof ApiError && stats.error.message !== 'Error' ? stats.error.message : '请稍后重试';
    return (
      <ConsolePage className="identifier-stats" filters={heading}>
        <Result
          status="warning"
          title={`${title}加载失败`}
          subTitle={reason}
          extra={
            <>
              <Button type="primary" loading={stats.isFetching} onClick={() => void stats.refetch()}>
                重试
              </Button>
              {view.prefix && <Button onClick={() => show({ ...view, prefix: undefined })}>查看全部前缀</Button>}
            </>
          }
        />
      </ConsolePage>
    );
  }

  if (data && data.scope === 'owner' && data.prefixes.length === 0) {
    return (
      <ConsolePage className="identifier-stats" filters={heading}>
        <Result
          status="info"
          title="本企业暂无标识前缀"
          subTitle="企业获批标识前缀并登记标识后，这里会统计这些标识被查询的次数、渠道与地区。"
        />
      </ConsolePage>
    );
  }

  const days = `近 ${view.days} 天`;
  const total = data?.totals.lookups ?? 0;
  return (
    <ConsolePage className="identifier-stats" filters={heading} actions={controls}>
      <div className={`identifier-stats__body${stats.isPlaceholderData ? ' is-updating' : ''}`} aria-busy={stats.isPlaceholderData}>
        <Tiles tiles={tilesOf(data)} />
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={16}>
            <StatsCard
              title="每日查询"
              note={data && `按渠道 · 共 ${formatCount(total)} 次`}
              {...exportOf('daily', data?.daily.length ?? 0)}
            >
              {!data || !daily ? (
                loading
              ) : hasLookups(data.daily) ? (
                <StatsChart option={daily} label={`${days}每日按渠道的查询次数堆叠柱状图`} height={chartHeight} />
              ) : (
                <StatsEmpty title={`${days}暂无查询`} hint="标识被网页查询、扫码或通过 Handle API 查询后，会按天计入这里。" />
              )}
            </StatsCard>
          </Col>
          <Col xs={24} xl={8}>
            <StatsCard title="地区分布" note="按省份" {...exportOf('regions', data?.regions.length ?? 0)}>
              {!data ? (
                loading
              ) : data.regions.length > 0 ? (
                <>
                  <RegionRanking regions={data.regions} total={total} />
                  <p className="identifier-stats__footnote">
                    按查询来源地址定位到省份，不保存地址；内网为局域网内的查询，未知为无法定位的地址。
                  </p>
                </>
              ) : (
                <StatsEmpty title={`${days}暂无查询`} />
              )}
            </StatsCard>
          </Col>
          <Col xs={24} lg={12} xxl={8}>
            <StatsCard title="热门标识" note="查到的标识" {...exportOf('handles', data?.topHandles.length ?? 0)}>
              {!data ? (
                loading
              ) : data.topHandles.length > 0 ? (
                <TopHandlesTable rows={data.topHandles} total={total} />
              ) : (
                <StatsEmpty title={`${days}暂无查到的标识`} />
              )}
            </StatsCard>
          </Col>
          <Col xs={24} lg={12} xxl={8}>
            <StatsCard title="热门数据项取值" note="计入统计的数据项" {...exportOf('values', data?.topValues.length ?? 0)}>
              {!data ? (
                loading
              ) : data.topValues.length > 0 ? (
                <TopValuesTable rows={data.topValues} />
              ) : (
                <StatsEmpty
                  title="暂无数据项取值统计"
                  hint={
                    <>
                      在模板中为数据项（如产品型号）勾选“计入统计”，之后查到的标识会按该项的取值计数。
                      {can([Authority.IdentifierTemplate]) && <Link to={TEMPLATE_PAGE}>前往前缀与模板</Link>}
                    </>
                  }
                />
              )}
            </StatsCard>
          </Col>
          <Col xs={24} xxl={8}>
            <StatsCard
              title="未找到的标识"
              note={data && `未找到率 ${formatRate(data.totals.notFoundRate)}`}
              {...exportOf('missing', data?.topMissing.length ?? 0)}
            >
              {!data ? (
                loading
              ) : data.topMissing.length > 0 ? (
                <TopMissingTable rows={data.topMissing} />
              ) : (
                <StatsEmpty title={`${days}没有未找到的查询`} />
              )}
            </StatsCard>
          </Col>
        </Row>
      </div>
    </ConsolePage>
  );
}
