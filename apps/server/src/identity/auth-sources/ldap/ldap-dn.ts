import { parseDnAva, splitDn } from '@portal/shared';

/**
 * Distinguished names the directory answers (RFC 4514, read by the shared splitDn / parseDnAva):
 * compared and cut to their parent. Spaces around separators are tolerated, as OpenLDAP and Active
 * Directory do.
 */

/** The DN one level up ('' for a one-RDN DN): where an entry sits, so a change of it is a 移动. */
export function parentDn(dn: string): string {
  const rdns = splitDn(dn);
  if (!rdns || rdns.length < 2) return '';
  return rdns
    .slice(1)
    .map((avas) => avas.map((ava) => ava.trim()).join('+'))
    .join(',');
}

/**
 * A DN in a form two spellings of the same entry share: types and values lowercased (names and
 * group members use case-insensitive matching rules in practice), spaces around separators dropped.
 */
export function normalizeDn(dn: string): string {
  const rdns = splitDn(dn);
  if (!rdns) return dn.trim().toLowerCase();
  return rdns
    .map((avas) =>
      avas
        .map((ava) => {
          const parsed = parseDnAva(ava);
          return parsed ? `${parsed.type.toLowerCase()}=${parsed.value.toLowerCase()}` : ava.trim().toLowerCase();
        })
        .sort()
        .join('+'),
    )
    .join(',');
}
