import { BankOutlined, EyeOutlined, FileDoneOutlined, LoginOutlined, ReloadOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Progress, Result, Row, Skeleton, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { ConsolePage } from '@/components/console-page';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { useSession } from '@/hooks/use-session';
import { type Dashboard, useDashboard } from '../api/get-dashboard';
import { dailyChartOption, seriesTotal } from '../lib/dashboard-charts';
import { DailyChart } from './daily-chart';
import './dashboard.css';

interface Tile {
  key: keyof Dashboard['kpis'];
  label: string;
  icon: ReactNode;
  tone: string;
}

const TILES: Tile[] = [
  { key: 'publishedArticles', label: '已发布文章', icon: <FileDoneOutlined />, tone: 'blue' },
  { key: 'totalViews', label: '文章累计浏览', icon: <EyeOutlined />, tone: 'cyan' },
  { key: 'accounts', label: '注册账号', icon: <TeamOutlined />, tone: 'green' },
  { key: 'enterprises', label: '入驻企业', icon: <BankOutlined />, tone: 'amber' },
  { key: 'loginsLast7Days', label: '近 7 天登录', icon: <LoginOutlined />, tone: 'purple' },
];

const number = new Intl.NumberFormat('zh-CN');

function KpiTiles({ kpis }: { kpis: Dashboard['kpis'] | undefined }) {
  return (
    <div className="dashboard__tiles">
      {TILES.map((t) => (
        <div key={t.key} className={`dashboard__tile dashboard__tile--${t.tone}`}>
          <span className="dashboard__tile-icon" aria-hidden="true">
            {t.icon}
          </span>
          <div className="dashboard__tile-text">
            <span className="dashboard__tile-label">{t.label}</span>
            <strong className="dashboard__tile-value">{kpis ? number.format(kpis[t.key]) : '—'}</strong>
          </div>
        </div>
      ))}
    </div>
  );
}

function TopArticles({ rows }: { rows: Dashboard['mostViewed'] }) {
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

/**
 * 工作台: live platform figures (KPI tiles), articles published and accounts registered per day over
 * the last 14 days (ECharts), and the most read articles.
 */
export function DashboardPage() {
  const dashboard = useDashboard();
  const name = useSession()?.name ?? '';
  const data = dashboard.data;
  const published = useMemo(() => dailyChartOption(data?.publishedPerDay ?? [], 'line', '发布文章', '#1456d9'), [data?.publishedPerDay]);
  const registered = useMemo(
    () => dailyChartOption(data?.registrationsPerDay ?? [], 'bar', '注册账号', '#14a37f'),
    [data?.registrationsPerDay],
  );

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
          <Typography.Text type="secondary">以下为平台实时数据，近 14 天按北京时间统计。</Typography.Text>
        </div>
      }
      actions={
        <Button icon={<ReloadOutlined />} loading={dashboard.isFetching} onClick={() => void dashboard.refetch()}>
          刷新
        </Button>
      }
    >
      <KpiTiles kpis={data?.kpis} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card
            title="近 14 天发布文章"
            extra={data && <span className="dashboard__total">共 {seriesTotal(data.publishedPerDay)} 篇</span>}
            size="small"
          >
            {data ? <DailyChart option={published} label="近 14 天每日发布文章数折线图" /> : <Skeleton active paragraph={{ rows: 6 }} />}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            title="近 14 天注册账号"
            extra={data && <span className="dashboard__total">共 {seriesTotal(data.registrationsPerDay)} 个</span>}
            size="small"
          >
            {data ? <DailyChart option={registered} label="近 14 天每日注册账号数柱状图" /> : <Skeleton active paragraph={{ rows: 6 }} />}
          </Card>
        </Col>
        <Col xs={24}>
          <Card title="热门文章" extra={<span className="dashboard__total">按累计浏览量</span>} size="small">
            {data ? <TopArticles rows={data.mostViewed} /> : <Skeleton active paragraph={{ rows: 5 }} />}
          </Card>
        </Col>
      </Row>
    </ConsolePage>
  );
}
