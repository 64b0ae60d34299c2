import {
  BankOutlined,
  EyeOutlined,
  FileDoneOutlined,
  FileSearchOutlined,
  LoginOutlined,
  QrcodeOutlined,
  ReloadOutlined,
  RiseOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { DASHBOARD_DAYS, type Dashboard, type DayCount, type PlatformDashboard } from '@portal/shared';
import { Button, Card, Col, Empty, Progress, Result, Row, Skeleton, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { ConsolePage } from '@/components/console-page';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { useSession } from '@/hooks/use-session';
import { useDashboard } from '../api/get-dashboard';
import { dailyChartOption, seriesTotal } from '../lib/dashboard-charts';
import { DailyChart } from './daily-chart';
import './dashboard.css';

interface Tile {
  key: string;
  label: string;
  value: number | undefined;
  /** A line under the value: the parts of a breakdown, each kept whole when the line wraps. */
  note?: string[];
  icon: ReactNode;
  tone: string;
}

const number = new Intl.NumberFormat('zh-CN');
const DAYS = `近 ${DASHBOARD_DAYS} 天`;

/** Whose figures these are: 本企业 for an enterprise account, 全平台 for operators (no one sees another tenant's). */
const scopeName = (data: Dashboard | undefined) => (data?.scope === 'platform' ? '全平台' : '本企业');

function tilesOf(data: Dashboard | undefined): Tile[] {
  const scope = scopeName(data);
  const accounts = data?.accounts;
  const tiles: Tile[] = [
    {
      key: 'accounts',
      label: `${scope}账号`,
      value: accounts && accounts.active + accounts.disabled + accounts.locked,
      note: accounts && [
        `正常 ${number.format(accounts.active)}`,
        `停用 ${number.format(accounts.disabled)}`,
        `锁定 ${number.format(accounts.locked)}`,
      ],
      icon: <TeamOutlined />,
      tone: 'green',
    },
    { key: 'active7', label: '近 7 天活跃', value: data?.activeLast7Days, note: ['登录过的账号'], icon: <LoginOutlined />, tone: 'purple' },
    { key: 'active30', label: '近 30 天活跃', value: data?.activeLast30Days, note: ['登录过的账号'], icon: <RiseOutlined />, tone: 'cyan' },
    {
      key: 'identifiers',
      label: `${scope}标识`,
      value: data?.identifiers.records,
      note: data && [`标识前缀 ${number.format(data.identifiers.prefixes)} 个`],
      icon: <QrcodeOutlined />,
      tone: 'blue',
    },
    {
      key: 'lookups',
      label: `${DAYS}标识查询`,
      value: data && seriesTotal(data.lookupsPerDay),
      icon: <FileSearchOutlined />,
      tone: 'amber',
    },
  ];
  const platform = data?.platform;
  if (!platform) return tiles;
  return [
    ...tiles.slice(0, 3),
    { key: 'enterprises', label: '入驻企业', value: platform.enterprises, icon: <BankOutlined />, tone: 'amber' },
    ...tiles.slice(3),
    { key: 'articles', label: '已发布文章', value: platform.publishedArticles, icon: <FileDoneOutlined />, tone: 'blue' },
    { key: 'views', label: '文章累计浏览', value: platform.totalViews, icon: <EyeOutlined />, tone: 'cyan' },
  ];
}

function KpiTiles({ tiles }: { tiles: Tile[] }) {
  return (
    <div className={`dashboard__tiles${tiles.length > 5 ? ' dashboard__tiles--four' : ''}`}>
      {tiles.map((t) => (
        <div key={t.key} className={`dashboard__tile dashboard__tile--${t.tone}`}>
          <span className="dashboard__tile-icon" aria-hidden="true">
            {t.icon}
          </span>
          <div className="dashboard__tile-text">
            <span className="dashboard__tile-label">{t.label}</span>
            <strong className="dashboard__tile-value">{t.value === undefined ? '—' : number.format(t.value)}</strong>
            {t.note && (
              <span className="dashboard__tile-note">
                {t.note.map((part, i) => (
                  <span key={part}>
                    {i > 0 && ' · '}
                    <span className="dashboard__tile-part">{part}</span>
                  </span>
                ))}
              </span>
            )}
          </div>
        </div>
      ))}
    </div>
  );
}

function TopArticles({ rows }: { rows: PlatformDashboard['mostViewed'] }) {
  const config = useRuntimeConfig();
  if (rows.length === 0) return <Empty description="暂无数据" image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const max = Math.max(...rows.map((r) => r.viewCount), 1);
  return (
    <ol className="dashboard__top" aria-label="热门文章">
      {rows.map((r, i) => (
        <li key={r.uuid} className="dashboard__top-item">
          <span className={`dashboard__rank${i < 3 ? ' is-top' : ''}`}>{i + 1}</span>
          <div className="dashboard__top-main">
            <a
              href={portalUrl(config, `/news/detail?id=${encodeURIComponent(r.uuid)}`)}
              target="_blank"
              rel="noopener noreferrer"
              title={r.title}
            >
              {r.title}
            </a>
            <Progress percent={Math.round((r.viewCount / max) * 100)} showInfo={false} size="small" strokeColor="#1456d9" />
          </div>
          <span className="dashboard__top-views">{number.format(r.viewCount)} 次</span>
        </li>
      ))}
    </ol>
  );
}

interface Series {
  key: string;
  title: string;
  /** What one point counts, for the chart's accessible name (每日登录次数). */
  measure: string;
  unit: string;
  kind: 'line' | 'bar';
  color: string;
  days: DayCount[] | undefined;
}

function DailyCard({ series }: { series: Series }) {
  const option = useMemo(
    () => dailyChartOption(series.days ?? [], series.kind, series.title, series.color, series.unit),
    [series.days, series.kind, series.title, series.color, series.unit],
  );
  return (
    <Card
      title={series.title}
      extra={
        series.days && (
          <span className="dashboard__total">
            共 {number.format(seriesTotal(series.days))} {series.unit}
          </span>
        )
      }
      size="small"
    >
      {series.days ? (
        <DailyChart option={option} label={`${DAYS}每日${series.measure}${series.kind === 'line' ? '折线图' : '柱状图'}`} />
      ) : (
        <Skeleton active paragraph={{ rows: 6 }} />
      )}
    </Card>
  );
}

function seriesOf(data: Dashboard | undefined): Series[] {
  const scope = scopeName(data);
  const own: Series[] = [
    {
      key: 'logins',
      title: `${scope}${DAYS}登录`,
      measure: '登录次数',
      unit: '次',
      kind: 'line',
      color: '#7a4fd1',
      days: data?.loginsPerDay,
    },
    {
      key: 'lookups',
      title: `${scope}${DAYS}标识查询`,
      measure: '标识查询次数',
      unit: '次',
      kind: 'bar',
      color: '#d98200',
      days: data?.lookupsPerDay,
    },
  ];
  const platform = data?.platform;
  if (!platform) return own;
  return [
    ...own,
    {
      key: 'published',
      title: `${DAYS}发布文章`,
      measure: '发布文章数',
      unit: '篇',
      kind: 'line',
      color: '#1456d9',
      days: platform.publishedPerDay,
    },
    {
      key: 'registrations',
      title: `${DAYS}注册账号`,
      measure: '注册账号数',
      unit: '个',
      kind: 'bar',
      color: '#14a37f',
      days: platform.registrationsPerDay,
    },
  ];
}

function subtitle(data: Dashboard | undefined): string {
  const period = `近 ${DASHBOARD_DAYS} 天按北京时间统计。`;
  if (!data) return '';
  if (data.scope === 'platform') return `以下为全平台实时数据，${period}`;
  return data.enterpriseName ? `以下为本企业（${data.enterpriseName}）实时数据，${period}` : '当前账号未加入企业，暂无本企业数据。';
}

/**
 * 工作台: an enterprise account sees its enterprise's figures — accounts by state, active
 * accounts, logins and identifier lookups per day, identifiers; operators see the whole platform, with
 * its enterprises, content, registrations and the most read articles.
 */
export function DashboardPage() {
  const dashboard = useDashboard();
  const name = useSession()?.name ?? '';
  const data = dashboard.data;

  if (dashboard.isError && !data) {
    return (
      <ConsolePage>
        <Result
          status="warning"
          title="工作台数据加载失败"
          extra={
            <Button type="primary" onClick={() => void dashboard.refetch()}>
              重新加载
            </Button>
          }
        />
      </ConsolePage>
    );
  }

  return (
    <ConsolePage
      className="dashboard"
      filters={
        <div className="dashboard__greeting">
          <Typography.Title level={4}>{name ? `${name}，您好` : '您好'}</Typography.Title>
          <Typography.Text type="secondary">{subtitle(data)}</Typography.Text>
        </div>
      }
      actions={
        <Button icon={<ReloadOutlined />} loading={dashboard.isFetching} onClick={() => void dashboard.refetch()}>
          刷新
        </Button>
      }
    >
      <KpiTiles tiles={tilesOf(data)} />
      <Row gutter={[16, 16]}>
        {seriesOf(data).map((series) => (
          <Col key={series.key} xs={24} xl={12}>
            <DailyCard series={series} />
          </Col>
        ))}
        {data?.platform && (
          <Col xs={24}>
            <Card title="热门文章" extra={<span className="dashboard__total">按累计浏览量</span>} size="small">
              <TopArticles rows={data.platform.mostViewed} />
            </Card>
          </Col>
        )}
      </Row>
    </ConsolePage>
  );
}
