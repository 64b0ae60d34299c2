import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';

/** Opens and closes the sidebar (spec section 2, navbar). */
export function Hamburger({ opened, onToggle }: { opened: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="console-navbar__icon console-hamburger"
      aria-label={opened ? '收起菜单' : '展开菜单'}
      aria-expanded={opened}
      onClick={onToggle}
    >
      {opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
    </button>
  );
}
