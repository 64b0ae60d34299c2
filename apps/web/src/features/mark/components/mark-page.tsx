import { ApartmentOutlined, CloseCircleFilled, DeploymentUnitOutlined, ExclamationCircleFilled, QrcodeOutlined } from '@ant-design/icons';
import { QR_SOURCE_PARAM, QR_SOURCE_VALUE } from '@portal/shared';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AntSearch } from '@/components/antd-markup';
import { ApiError } from '@/lib/api-client';
import { scrollTo } from '@/lib/scroll-to';
import { useForgetIdentity, useIdentity } from '../api/get-identity';
import { MARK_EXAMPLE } from '../lib/mark-result';
import { MarkNotFound } from './mark-not-found';
import { MarkResultCard } from './mark-result-card';
import './mark.css';

/** Spec section 2: the placeholder suggests a dotted identifier with slashes. */
export const MARK_PLACEHOLDER = `如 ${MARK_EXAMPLE}`;
/** Spec section 9: after a lookup the page scrolls down to 400 px. */
export const SCROLL_AFTER_LOOKUP = 400;

const GUIDE = [
  {
    icon: <QrcodeOutlined />,
    title: '一物一码',
    text: '每台设备、每个零部件拥有全球唯一的工业互联网标识，印在铭牌或二维码标签上，扫码即查。',
  },
  {
    icon: <DeploymentUnitOutlined />,
    title: '全生命周期追溯',
    text: '型号、出厂编号、生产日期、生产厂家、质保与售后服务信息由企业维护，随时可查。',
  },
  {
    icon: <ApartmentOutlined />,
    title: '跨企业互通',
    text: '基于 Handle 体系的二级节点，本节点未登记的前缀自动向上级节点解析，产业链上下游数据互认。',
  },
];

/** Why a search found nothing to show: the server's reason (a refused identifier), else a generic one. */
function refusalText(error: Error): string {
  return error instanceof ApiError && error.message !== 'Error' ? error.message : '查询失败，请稍后重试';
}

/**
 * 标识查询 (spec sections 2, 4, 5, 8): Enter searches; `?keyword=` fills the box and searches at
 * once; only a non-empty keyword searches; the searched identifier stays in the address, so the page
 * can be shared, reloaded or reached from the result's QR code. Each search clears the previous
 * result first; a refused identifier shows the server's reason under the box (no error toast), an
 * unknown one 未找到该标识 with a hint; only a result scrolls the page to 400 px (spec section 9).
 * A page a printed label's QR code opened (`&src=qr`) sends its lookup as a scan (扫码); a
 * search typed on it afterwards is the visitor's own and drops the marker from the address.
 */
export function MarkPage() {
  const [params, setParams] = useSearchParams();
  const keyword = params.get('keyword') ?? '';
  const [text, setText] = useState(keyword);
  // The box shows the address's keyword whenever that changes (React: adjusting state on a prop change).
  const [shownKeyword, setShownKeyword] = useState(keyword);
  if (keyword !== shownKeyword) {
    setShownKeyword(keyword);
    setText(keyword);
  }
  const scanned = useRef(params.get(QR_SOURCE_PARAM) === QR_SOURCE_VALUE);
  const identity = useIdentity(keyword, scanned);
  const forget = useForgetIdentity();
  // A search clears the shown result (useForgetIdentity); a page that arrived with its result checks it
  // again in the background and keeps showing it meanwhile.
  const found = identity.isSuccess ? identity.data : undefined;
  const searching = identity.isFetching && !found;

  // Scroll once per search (arrival with a keyword, or a search below), when it brings a result.
  const scrollPending = useRef(keyword.trim() !== '');
  useEffect(() => {
    if (identity.isError) scrollPending.current = false;
    if (!found || !scrollPending.current) return;
    scrollPending.current = false;
    if (found.mark) scrollTo(SCROLL_AFTER_LOOKUP);
  }, [found, identity.isError]);

  const onSearch = (value: string, source?: 'input' | 'clear') => {
    if (source === 'clear') return onClear();
    const next = value.trim();
    if (!next) return;
    scrollPending.current = true;
    scanned.current = false;
    void forget(next);
    if (next !== keyword || params.has(QR_SOURCE_PARAM)) setParams({ keyword: next }, { replace: true });
  };

  const onClear = () => {
    setText('');
    scanned.current = false;
    if (keyword || params.has(QR_SOURCE_PARAM)) setParams({}, { replace: true });
  };

  const refusal = identity.isError ? refusalText(identity.error) : null;

  return (
    <div className="mark">
      <section className="mark__hero">
        <div className="mark__hero-inner">
          <h1>标识查询</h1>
          <p>工业互联网标识解析二级节点：输入产品标识，查看产品型号、出厂编号、生产日期与售后服务信息</p>
          <AntSearch
            className="mark__search"
            size="large"
            // The cross is named after its icon.
            clearIcon={<CloseCircleFilled aria-label="清空输入" />}
            enterButton="查询"
            placeholder={MARK_PLACEHOLDER}
            aria-label="标识"
            aria-describedby={refusal === null ? undefined : 'mark-refusal'}
            error={refusal !== null}
            value={text}
            loading={searching}
            onChange={setText}
            onSearch={onSearch}
          />
          {/* A live region present from the start, so a reader announces the reason when it appears. */}
          <div id="mark-refusal" role="status">
            {refusal !== null && (
              <p className="mark__refusal">
                <ExclamationCircleFilled aria-hidden="true" />
                <span>{refusal}</span>
              </p>
            )}
          </div>
          <p className="mark__hint">标识由“前缀/后缀”组成：前缀是企业在标识解析节点的编码，后缀是企业为产品编的码</p>
        </div>
      </section>
      <div className="mark__container">
        {found &&
          (found.mark ? (
            <MarkResultCard mark={found.mark} fields={found.fields ?? []} onClear={onClear} />
          ) : (
            <MarkNotFound handle={keyword.trim()} />
          ))}
        <ul className="mark__guide">
          {GUIDE.map((g) => (
            <li key={g.title}>
              <span className="mark__guide-icon">{g.icon}</span>
              <h2>{g.title}</h2>
              <p>{g.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
