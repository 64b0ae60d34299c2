import { ApartmentOutlined, CloseCircleFilled, DeploymentUnitOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Empty, Input } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { scrollTo } from '@/lib/scroll-to';
import { useIdentitySearch } from '../api/get-identity';
import { MarkResultCard } from './mark-result-card';
import './mark.css';

/** Spec section 2: the placeholder suggests a dotted identifier with slashes. */
export const MARK_PLACEHOLDER = '如 88.118.8/EX-2024-000123';
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

/**
 * 标识查询 (spec sections 2, 4, 5, 8): Enter searches; `?keyword=` fills the box and searches at
 * once; only a non-empty keyword searches; after a result the page scrolls to 400 px; clearing
 * empties the result; a failed search shows nothing. The searched identifier stays in the address,
 * so the page can be shared, reloaded or reached from the result's QR code.
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
  const { result, searching, search, clear } = useIdentitySearch();

  const lookUp = useCallback(
    (value: string) => {
      void search(value).then((found) => {
        if (found) scrollTo(SCROLL_AFTER_LOOKUP);
      });
    },
    [search],
  );

  // The address decides what is searched: on arrival, and after each search or clear below.
  useEffect(() => {
    if (keyword.trim()) lookUp(keyword);
  }, [keyword, lookUp]);

  const onSearch = (value: string, source?: 'input' | 'clear') => {
    if (source === 'clear') return onClear();
    const next = value.trim();
    if (!next) return;
    if (next === keyword) lookUp(next);
    else setParams({ keyword: next }, { replace: true });
  };

  const onClear = () => {
    setText('');
    clear();
    if (keyword) setParams({}, { replace: true });
  };

  return (
    <div className="mark">
      <section className="mark__hero">
        <div className="mark__hero-inner">
          <h1>标识查询</h1>
          <p>工业互联网标识解析二级节点：输入产品标识，查看产品型号、出厂编号、生产日期与售后服务信息</p>
          <Input.Search
            className="mark__search"
            size="large"
            // antd names the cross after its icon (close-circle).
            allowClear={{ clearIcon: <CloseCircleFilled aria-label="清空输入" /> }}
            enterButton="查询"
            placeholder={MARK_PLACEHOLDER}
            aria-label="标识"
            value={text}
            loading={searching}
            onChange={(e) => setText(e.target.value)}
            onSearch={(value, _event, info) => onSearch(value, info?.source)}
          />
          <p className="mark__hint">标识由“前缀/后缀”组成：前缀是企业在标识解析节点的编码，后缀是企业为产品编的码</p>
        </div>
      </section>
      <div className="mark__container">
        {result &&
          (result.mark ? (
            <MarkResultCard mark={result.mark} fields={result.fields ?? []} onClear={onClear} />
          ) : (
            <Empty className="mark__empty" description="暂无数据" />
          ))}
        <ul className="mark__guide">
          {GUIDE.map((g) => (
            <li key={g.title}>
              <span className="mark__guide-icon">{g.icon}</span>
              <h3>{g.title}</h3>
              <p>{g.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
