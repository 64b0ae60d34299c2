import { type AuthorityNode, TENANT_AUTHORITY_TREE, withTenantParents } from '@portal/shared';

export interface AuthorityTreeNode {
  key: string;
  title: string;
  children?: AuthorityTreeNode[];
}

const toTreeNode = (node: AuthorityNode): AuthorityTreeNode => ({
  key: node.code,
  title: node.title,
  ...(node.children ? { children: node.children.map(toTreeNode) } : {}),
});

/** The tree 角色管理 picks from: the codes a tenant may grant (shared with the server's check). */
export const AUTHORITY_TREE_DATA: AuthorityTreeNode[] = TENANT_AUTHORITY_TREE.map(toTreeNode);

function walk(nodes: readonly AuthorityNode[], visit: (node: AuthorityNode) => void): void {
  for (const node of nodes) {
    visit(node);
    walk(node.children ?? [], visit);
  }
}

/** Every grantable code in the tree's order, and the nodes that have children. */
const ORDER: string[] = [];
const PARENTS = new Set<string>();
const TITLES = new Map<string, string>();
walk(TENANT_AUTHORITY_TREE, (node) => {
  ORDER.push(node.code);
  TITLES.set(node.code, node.title);
  if (node.children?.length) PARENTS.add(node.code);
});

/**
 * The tree's checked keys for a role's codes. A parent is left out: the tree derives it from its
 * children (checked when all are, half-checked when some are), and a checked parent would tick them all.
 */
export function checkedKeysOf(authorities: readonly string[]): string[] {
  return ORDER.filter((code) => !PARENTS.has(code) && authorities.includes(code));
}

/**
 * The codes a role gets for the tree's checked keys: each with its parents (a menu group shows only to
 * holders of its own code, spec section 6), by the rule the server applies too.
 */
export const authoritiesOf = (checked: readonly string[]): string[] => withTenantParents(checked);

/** The part of the tree a role holds: granted leaves under their parents, for reading (no checkboxes). */
export function grantedTreeData(
  authorities: readonly string[],
  nodes: readonly AuthorityTreeNode[] = AUTHORITY_TREE_DATA,
): AuthorityTreeNode[] {
  return nodes.flatMap((node) => {
    if (!node.children) return authorities.includes(node.key) ? [node] : [];
    const children = grantedTreeData(authorities, node.children);
    return children.length > 0 ? [{ ...node, children }] : [];
  });
}

/** The Chinese name of a code (its title in the tree), or the code itself. */
export const authorityTitle = (code: string) => TITLES.get(code) ?? code;
