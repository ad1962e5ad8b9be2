/**
 * Looking a resource up by its name in a service's list, one rule for every file that names resources instead of
 * giving their IDs (alert files, service folders): a name must match exactly one item, character for character; a
 * name that matches only when case is ignored is not taken (the message suggests it). Pure (no vscode import).
 */

/** An item of a list (only what the lookup needs). */
export interface NamedItem {
  readonly id: string;
  readonly name?: string | null;
}

export interface LookupWords {
  /** The kind in messages, one and many: `webhook`, `webhooks`. */
  readonly one: string;
  readonly many: string;
  /** The service's name as shown to the user. */
  readonly serviceLabel: string;
  /** The ID field to use instead when a name is shared (`webhookId`). */
  readonly idField: string;
}

export function quotedName(value: string): string {
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);
}

function listed(names: readonly string[], limit = 10): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, limit).map(quotedName).join(', ');
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown;
}

/** Looks one name up in a list: the single exact match, or the problem. */
export function lookUpByName(
  name: string,
  list: readonly NamedItem[],
  words: LookupWords,
): { id: string } | { message: string } {
  const exact = list.filter((item) => item.name === name);
  if (exact.length === 1) return { id: exact[0]!.id };
  const service = quotedName(words.serviceLabel);
  if (exact.length > 1) {
    return {
      message: `${exact.length} ${words.many} named ${quotedName(name)} on service ${service} (IDs ${exact.map((i) => i.id).join(', ')}): use ${words.idField}`,
    };
  }
  const folded = name.trim().toLowerCase();
  const near = list
    .map((item) => item.name)
    .filter((n): n is string => typeof n === 'string' && n.trim().toLowerCase() === folded);
  const names = [
    ...new Set(list.map((item) => item.name).filter((n): n is string => typeof n === 'string' && n !== '')),
  ];
  const hint = near.length > 0 ? `; did you mean ${near.map(quotedName).join(' or ')}? (names must match exactly)` : '';
  return {
    message: `no ${words.one} named ${quotedName(name)} on service ${service} (${words.many} there: ${listed(names)})${hint}`,
  };
}
