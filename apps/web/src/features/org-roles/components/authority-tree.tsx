import { CaretDownOutlined } from '@ant-design/icons';
import { Tree } from 'antd';
import { AUTHORITY_TREE_DATA, authoritiesOf, checkedKeysOf } from '../lib/authority-tree';

/**
 * The authorities of a role as a tree with checkboxes (a form control: `value` and `onChange` carry
 * the codes). Read-only when `disabled` (system roles).
 */
export function AuthorityTree({
  value = [],
  onChange,
  disabled = false,
  id,
}: {
  value?: string[];
  onChange?: (codes: string[]) => void;
  disabled?: boolean;
  id?: string;
}) {
  return (
    <div id={id} className="org-roles__tree">
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        // The expand caret is decoration: left named, it would start every parent's name ("caret-down 标识管理").
        switcherIcon={<CaretDownOutlined aria-hidden />}
        disabled={disabled}
        treeData={AUTHORITY_TREE_DATA}
        checkedKeys={checkedKeysOf(value)}
        onCheck={(checked, info) => {
          const keys = Array.isArray(checked) ? checked : checked.checked;
          onChange?.(authoritiesOf(keys.map(String), (info.halfCheckedKeys ?? []).map(String)));
        }}
      />
    </div>
  );
}
