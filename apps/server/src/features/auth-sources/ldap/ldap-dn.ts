/**
 * Distinguished names as strings (RFC 4514): split at the separators that are not escaped, checked,
 * compared and cut to their parent. Spaces around separators are tolerated, as OpenLDAP and Active
 * Directory do.
 */

/** The RDNs of a DN, each as its attribute-value assertions ("cn=a+sn=b" → two); undefined for a dangling "\". */
export function splitDn(dn: string): string[][] | undefined {
  const rdns: string[][] = [];
  let avas: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i += 1) {
    const char = dn[i];
    if (char === '\\') {
      // An escaped special ("\,") or the first digit of a hex pair ("\2C"): never a separator.
      if (i + 1 >= dn.length) return undefined;
      current += char + dn[i + 1];
      i += 1;
    } else if (char === ',' || char === '+') {
      avas.push(current);
      current = '';
      if (char === ',') {
        rdns.push(avas);
        avas = [];
      }
    } else {
      current += char;
    }
  }
  avas.push(current);
  rdns.push(avas);
  return rdns;
}

const ATTRIBUTE_TYPE = /^\s*([A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)\s*=\s*(.*?)\s*$/s;
// A "#" hexstring, or characters other than the specials (and NUL), which must appear escaped ("\," or "\2C").
const VALUE = /^(?:#(?:[0-9A-Fa-f]{2})+|(?:[^,+"\\<>;]|\\(?:[ "#+,;<=>\\]|[0-9A-Fa-f]{2}))+)$/;

/** One attribute-value assertion's type and value, or undefined when it is not one. */
function parseAva(ava: string): { type: string; value: string } | undefined {
  const match = ATTRIBUTE_TYPE.exec(ava);
  if (!match) return undefined;
  const [, type = '', value = ''] = match;
  return VALUE.test(value) && !value.includes('\0') ? { type, value } : undefined;
}

/** RFC 4514 §3: one or more RDNs, each one or more `type=value` (the empty DN is not a place to search). */
export function isValidDn(dn: string): boolean {
  const rdns = splitDn(dn);
  return !!rdns && rdns.every((avas) => avas.every((ava) => parseAva(ava) !== undefined));
}

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
          const parsed = parseAva(ava);
          return parsed ? `${parsed.type.toLowerCase()}=${parsed.value.toLowerCase()}` : ava.trim().toLowerCase();
        })
        .sort()
        .join('+'),
    )
    .join(',');
}
