import type { AdminCategory, Channel } from '../api/categories';

export const CHANNEL_NAMES: Record<Channel, string> = { news: '行业资讯', knowledge: '行业知识' };

export interface CategoryTreeNode extends AdminCategory {
  children?: CategoryTreeNode[];
}

/** The flat list as the two-level tree: top-level categories by channel, each with its children. */
export function categoryTree(categories: readonly AdminCategory[]): CategoryTreeNode[] {
  const channels = Object.keys(CHANNEL_NAMES);
  // News first, then knowledge, as the public header lists them; the server's order within each.
  const roots = categories.filter((c) => c.parentId === null).sort((a, b) => channels.indexOf(a.channel) - channels.indexOf(b.channel));
  return roots.map((root) => {
    const children = categories.filter((c) => c.parentId === root.categoryId);
    return children.length > 0 ? { ...root, children } : { ...root };
  });
}

/** Whether `code` is the policy category or one of its children (policies carry a number and a validity). */
export function isPolicyCategory(categories: readonly AdminCategory[], code: string | undefined): boolean {
  if (!code) return false;
  if (code === 'policy') return true;
  return categories.find((c) => c.categoryId === code)?.parentId === 'policy';
}

export interface CategoryOption {
  value: string;
  title: string;
  children?: CategoryOption[];
}

/** TreeSelect options grouped by channel (the channels themselves are not selectable). */
export function categoryOptions(categories: readonly AdminCategory[]): (CategoryOption & { selectable?: boolean })[] {
  const tree = categoryTree(categories);
  return (Object.keys(CHANNEL_NAMES) as Channel[])
    .map((channel) => ({
      value: `channel:${channel}`,
      title: CHANNEL_NAMES[channel],
      selectable: false,
      children: tree
        .filter((c) => c.channel === channel)
        .map((c) => ({
          value: c.categoryId,
          title: c.categoryName,
          ...(c.children ? { children: c.children.map((k) => ({ value: k.categoryId, title: k.categoryName })) } : {}),
        })),
    }))
    .filter((group) => group.children.length > 0);
}
