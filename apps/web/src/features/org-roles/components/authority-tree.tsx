import { CaretDownOutlined } from '@ant-design/icons';
import { Tree } from 'antd';
import { AUTHORITY_TREE_DATA, authoritiesOf, checkedKeysOf, grantedTreeData } from '../lib/authority-tree';

// The expand caret is decoration: left named, it would start every parent's name ("caret-down 标识管理").
const caret = <CaretDownOutlined aria-hidden />;

/** The authorities of a role as a tree with checkboxes (a form control: `value` and `onChange` carry the codes). */
export function AuthorityTree({ value = [], onChange, id }: { value?: string[]; onChange?: (codes: string[]) => void; id?: string }) {
  return (
    <div id={id} className="org-roles__tree">
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        switcherIcon={caret}
        treeData={AUTHORITY_TREE_DATA}
        checkedKeys={checkedKeysOf(value)}
        onCheck={(checked) => {
          const keys = Array.isArray(checked) ? checked : checked.checked;
          onChange?.(authoritiesOf(keys.map(String)));
        }}
      />
    </div>
  );
}

/** The authorities a role holds, read-only: only the granted part of the tree. */
export function GrantedAuthorities({ authorities }: { authorities: string[] }) {
  return (
    <div className="org-roles__tree" role="group" aria-label="权限">
      <Tree selectable={false} defaultExpandAll switcherIcon={caret} treeData={grantedTreeData(authorities)} />
    </div>
  );
}
