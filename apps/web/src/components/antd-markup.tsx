import { type AnchorHTMLAttributes, type ButtonHTMLAttributes, type ReactNode, useId, useState } from 'react';
import emptyImage from '@/assets/empty.svg';
import resultNotFoundImage from '@/assets/result-404.svg';

/**
 * antd's markup without antd's code, for what the public pages draw on their first view: a server-
 * rendered page a visitor lands on hydrates only the page's own code (no antd, no provider). Each
 * writes the elements and class names antd writes for the same props under the portal's theme
 * (`config/theme.ts`: one CSS-variable scope, no hashed class), so the build-time stylesheet of
 * antd's components styles them exactly as antd's own (`PUBLIC_ANTD_COMPONENTS`).
 */

/** The class antd puts on every component's root under the portal's theme. */
export const ANTD_SCOPE = 'css-var-portal';

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** antd spaces a label of exactly two Chinese characters (`重 置`) on a button without an icon. */
const TWO_CHINESE = /^[\u4e00-\u9fa5]{2}$/;
function buttonLabel(children: ReactNode, withIcon: boolean): ReactNode {
  return !withIcon && typeof children === 'string' && TWO_CHINESE.test(children) ? children.split('').join(' ') : children;
}

type ButtonLook = 'primary' | 'default';

function buttonClass(look: ButtonLook, className: string | undefined, extra?: string) {
  return cx(
    'ant-btn',
    ANTD_SCOPE,
    `ant-btn-${look}`,
    `ant-btn-color-${look}`,
    look === 'primary' ? 'ant-btn-variant-solid' : 'ant-btn-variant-outlined',
    extra,
    className,
  );
}

interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  look?: ButtonLook;
  icon?: ReactNode;
  /** Spinner in place of the icon, clicks ignored (antd's `loading`). */
  loading?: boolean;
}

/** antd's `<Button>` (a `<button>`). */
export function AntButton({ look = 'default', icon, loading = false, className, children, onClick, ...rest }: ButtonProps) {
  return (
    <button
      type="button"
      className={buttonClass(look, className, loading ? 'ant-btn-loading' : undefined)}
      onClick={loading ? undefined : onClick}
      {...rest}
    >
      {loading ? (
        <span className="ant-btn-icon ant-btn-loading-icon">
          <LoadingIcon />
        </span>
      ) : (
        icon !== undefined && <span className="ant-btn-icon">{icon}</span>
      )}
      <span>{buttonLabel(children, icon !== undefined)}</span>
    </button>
  );
}

/** antd's `<Button href>` (an `<a>`). */
export function AntButtonLink({
  look = 'default',
  icon,
  className,
  children,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { look?: ButtonLook; icon?: ReactNode }) {
  return (
    <a className={buttonClass(look, className)} {...rest}>
      {icon !== undefined && <span className="ant-btn-icon">{icon}</span>}
      <span>{buttonLabel(children, icon !== undefined)}</span>
    </a>
  );
}

/** antd's `LoadingOutlined`, spinning. */
function LoadingIcon() {
  return (
    <span role="img" aria-label="loading" className="anticon anticon-loading anticon-spin">
      <svg viewBox="0 0 1024 1024" focusable="false" data-icon="loading" width="1em" height="1em" fill="currentColor" aria-hidden="true">
        <path d="M988 548c-19.9 0-36-16.1-36-36 0-59.4-11.6-117-34.6-171.3a440.45 440.45 0 00-94.3-139.9 437.71 437.71 0 00-139.9-94.3C629 83.6 571.4 72 512 72c-19.9 0-36-16.1-36-36s16.1-36 36-36c69.1 0 136.2 13.5 199.3 40.3C772.3 66 827 103 874 150c47 47 83.9 101.8 109.7 162.7 26.7 63.1 40.2 130.2 40.2 199.3.1 19.9-16 36-35.9 36z" />
      </svg>
    </span>
  );
}

/** antd's `<Skeleton active>`: a title bar (unless `title={false}`) and `rows` lines, the last one shorter. */
export function AntSkeleton({ rows = 3, title = true, className }: { rows?: number; title?: boolean; className?: string }) {
  return (
    <div className={cx('ant-skeleton ant-skeleton-active', ANTD_SCOPE, className)}>
      <div className="ant-skeleton-section">
        {title && <h3 className="ant-skeleton-title" style={{ width: '38%' }} />}
        <ul className="ant-skeleton-paragraph">
          {Array.from({ length: rows }, (_, i) => (
            <li key={i} style={i === rows - 1 && rows > 1 ? { width: '61%' } : undefined} />
          ))}
        </ul>
      </div>
    </div>
  );
}

/** antd's `<Breadcrumb>`: items from first to last, `/` between them. */
export function AntBreadcrumb({ items, className }: { items: ReactNode[]; className?: string }) {
  return (
    <nav className={cx('ant-breadcrumb', ANTD_SCOPE, className)}>
      <ol>
        {items.flatMap((item, i) => [
          ...(i > 0
            ? [
                <li key={`s${i}`} className="ant-breadcrumb-separator" aria-hidden="true">
                  /
                </li>,
              ]
            : []),
          <li key={i} className="ant-breadcrumb-item">
            <span className="ant-breadcrumb-link">{item}</span>
          </li>,
        ])}
      </ol>
    </nav>
  );
}

/**
 * antd's `<Result>` for a missing page (`404`, antd's picture) or a failure (`error`, its red cross;
 * `CloseCircleFilled` for the icon, which the caller passes so this module stays free of icons).
 */
export function AntResult({
  status,
  icon,
  title,
  subTitle,
  extra,
}: {
  status: '404' | 'error';
  icon?: ReactNode;
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <div className={cx('ant-result', `ant-result-${status}`, ANTD_SCOPE)}>
      {status === '404' ? (
        <div className="ant-result-icon ant-result-image">
          <img src={resultNotFoundImage} width={252} height={294} alt="" />
        </div>
      ) : (
        <div className="ant-result-icon">{icon}</div>
      )}
      <div className="ant-result-title">{title}</div>
      {subTitle !== undefined && <div className="ant-result-subtitle">{subTitle}</div>}
      {extra !== undefined && <div className="ant-result-extra">{extra}</div>}
    </div>
  );
}

interface SearchProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter, the button, or the clear cross (`clear`: the box was emptied). */
  onSearch: (value: string, source: 'input' | 'clear') => void;
  enterButton: string;
  placeholder?: string;
  maxLength?: number;
  size?: 'large';
  error?: boolean;
  loading?: boolean;
  /** The clear cross's icon; its accessible name is the icon's label. */
  clearIcon: ReactNode;
  className?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
}

/**
 * antd's `<Input.Search allowClear enterButton>`: a search box with a clear cross (shown while the box
 * holds text) and a primary button; Enter and the button search, the cross empties and searches.
 */
export function AntSearch({
  value,
  onChange,
  onSearch,
  enterButton,
  placeholder,
  maxLength,
  size,
  error = false,
  loading = false,
  clearIcon,
  className,
  ...aria
}: SearchProps) {
  const [focused, setFocused] = useState(false);
  const large = size === 'large';
  return (
    <div
      className={cx(
        'ant-space-compact ant-input-search',
        ANTD_SCOPE,
        large && 'ant-input-search-large',
        'ant-input-search-with-button',
        className,
      )}
    >
      <span
        className={cx(
          'ant-input-affix-wrapper',
          large && 'ant-input-affix-wrapper-lg',
          focused && 'ant-input-affix-wrapper-focused',
          'ant-input-outlined',
          error && 'ant-input-status-error',
          ANTD_SCOPE,
          'ant-input-css-var ant-input-compact-item ant-input-compact-first-item',
        )}
      >
        <input
          placeholder={placeholder}
          maxLength={maxLength}
          aria-invalid={error}
          {...aria}
          type="search"
          className={cx('ant-input', large && 'ant-input-lg')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onKeyDown={(e) => {
            // Not while an input method is composing a character.
            if (e.key === 'Enter' && !e.nativeEvent.isComposing && !loading) onSearch(value, 'input');
          }}
        />
        <span className="ant-input-suffix">
          <button
            type="button"
            className={cx('ant-input-clear-icon', value === '' && 'ant-input-clear-icon-hidden')}
            onClick={() => {
              onChange('');
              onSearch('', 'clear');
            }}
          >
            {clearIcon}
          </button>
        </span>
      </span>
      <button
        type="button"
        className={cx(
          'ant-btn',
          ANTD_SCOPE,
          'ant-btn-default ant-btn-color-primary ant-btn-variant-solid',
          large && 'ant-btn-lg',
          loading && 'ant-btn-loading',
          'ant-btn-compact-item ant-btn-compact-last-item ant-input-search-btn',
        )}
        onClick={loading ? undefined : () => onSearch(value, 'input')}
      >
        {loading && (
          <span className="ant-btn-icon ant-btn-loading-icon">
            <LoadingIcon />
          </span>
        )}
        <span>{buttonLabel(enterButton, false)}</span>
      </button>
    </div>
  );
}

/** antd's `<Tag color="blue">`. */
export function AntTag({ children }: { children: ReactNode }) {
  return <span className={cx('ant-tag ant-tag-filled ant-tag-blue', ANTD_SCOPE)}>{children}</span>;
}

/**
 * antd's `<Segmented>` of text options: radio buttons of one name (arrow keys move between them, as
 * the browser does for radios), the chosen one marked.
 */
export function AntSegmented({
  options,
  value,
  onChange,
  label,
  className,
}: {
  options: string[];
  value: string;
  onChange: (value: string) => void;
  label: string;
  className?: string;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label} aria-orientation="horizontal" className={cx('ant-segmented', className, ANTD_SCOPE)}>
      <div className="ant-segmented-group">
        {options.map((option) => (
          <label
            key={option}
            className={cx('ant-segmented-item', option === value && 'ant-segmented-item-selected ant-segmented-item-selected-text')}
          >
            <input
              className="ant-segmented-item-input"
              type="radio"
              name={name}
              checked={option === value}
              onChange={() => onChange(option)}
            />
            <div className="ant-segmented-item-label" title={option}>
              {option}
            </div>
          </label>
        ))}
      </div>
    </div>
  );
}

/** antd's `<Empty>` with its default picture; `children` go below the description (antd's footer). */
export function AntEmpty({ description, className, children }: { description: ReactNode; className?: string; children?: ReactNode }) {
  return (
    <div className={cx(ANTD_SCOPE, 'ant-empty', className)}>
      <div className="ant-empty-image">
        <img src={emptyImage} width={184} height={152} alt="" />
      </div>
      <div className="ant-empty-description">{description}</div>
      {children !== undefined && <div className="ant-empty-footer">{children}</div>}
    </div>
  );
}

/**
 * antd's `<Tabs>` as a row of tabs without panels (a filter): WAI-ARIA tabs, one tab in the Tab order,
 * the arrow keys, Home and End move and choose, as antd's do. The ink bar is the chosen tab's own
 * underline (CSS), so the server's markup shows it before any script runs.
 */
export function AntTabs({
  items,
  activeKey,
  onChange,
  className,
}: {
  items: { key: string; label: string }[];
  activeKey: string | undefined;
  onChange: (key: string) => void;
  className?: string;
}) {
  // The arrow keys wrap around, as antd's do.
  const move = (to: number, list: HTMLElement) => {
    const index = (to + items.length) % items.length;
    const next = items[index];
    if (!next || next.key === activeKey) return;
    list.querySelectorAll<HTMLElement>('[role="tab"]')[index]?.focus();
    onChange(next.key);
  };
  return (
    <div className={cx('ant-tabs ant-tabs-top', className, ANTD_SCOPE, 'ant-tabs-css-var')}>
      <div role="tablist" aria-orientation="horizontal" className="ant-tabs-nav">
        <div className="ant-tabs-nav-wrap">
          <div className="ant-tabs-nav-list">
            {items.map((item, index) => {
              const active = item.key === activeKey;
              return (
                <div key={item.key} data-node-key={item.key} className={cx('ant-tabs-tab', active && 'ant-tabs-tab-active')}>
                  <div
                    role="tab"
                    aria-selected={active}
                    className="ant-tabs-tab-btn"
                    tabIndex={active || (activeKey === undefined && index === 0) ? 0 : -1}
                    onClick={() => !active && onChange(item.key)}
                    onKeyDown={(e) => {
                      const list = e.currentTarget.closest<HTMLElement>('[role="tablist"]');
                      if (!list) return;
                      const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: items.length - 1 }[e.key];
                      if (to !== undefined) {
                        e.preventDefault();
                        move(to, list);
                      } else if ((e.key === 'Enter' || e.key === ' ') && !active) {
                        e.preventDefault();
                        onChange(item.key);
                      }
                    }}
                  >
                    {item.label}
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
