/**
 * Where in a JSON document a problem the service reported belongs (no `vscode` here: plain Node tests use it).
 *
 * The dashboard validation answers `{path, message}` pairs: `path` is dot-separated (`tiles.0.config.select`; numeric
 * segments are array indexes) or empty for a problem of the whole body. The tile rules the service checks after its
 * schema (sources, connections, containers) answer with an empty path and name what is wrong in the message: a
 * leading `tiles.0.containerId: …`, or a list of IDs (`Could not find the following source IDs: a, b`). Those are
 * found in the text too, so the problem sits where the user has to change something.
 *
 * The text comes parsed (jsonc-parser's `parseTree`, as the editors parse documents); only its types are used here.
 */
import type { Node as JsonNode } from 'jsonc-parser/lib/esm/main';

export type PathSegment = string | number;

/** A span of the text: `offset` and `length` in UTF-16 code units, as `TextDocument.positionAt` takes them. */
export interface TextSpan {
  readonly offset: number;
  readonly length: number;
}

export interface LocatedProblem {
  readonly span: TextSpan;
  /** The path the span belongs to (possibly a parent of the reported one), for the message. */
  readonly path: readonly PathSegment[];
  /**
   * How the span was found: `exact` (the reported path), `parent` (the closest existing parent of a missing field),
   * `message` (a path or an ID the message names) or `document` (nothing better: the document's first line).
   */
  readonly how: 'exact' | 'parent' | 'message' | 'document';
}

/**
 * Segments of a path the service reported: dot-separated, numeric segments as array indexes. A JSON pointer
 * (`/tiles/0/w`, as other tools write paths) is read too. Empty for the whole body.
 */
export function serverPathSegments(path: string): PathSegment[] {
  const trimmed = path.trim();
  if (trimmed === '' || trimmed === '/') return [];
  const parts = trimmed.startsWith('/')
    ? trimmed
        .slice(1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    : trimmed.split('.');
  return parts.filter((p) => p !== '').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** A leading `a.b.0.c: ` of a message (the service's tile rules put the field there), and the rest. */
export function pathInMessage(message: string): { path: PathSegment[]; rest: string } | undefined {
  const m = /^([A-Za-z_$][\w$]*(?:\.[\w$]+)+): (.+)$/s.exec(message);
  if (!m) return undefined;
  return { path: serverPathSegments(m[1] as string), rest: m[2] as string };
}

/** IDs a message lists after "IDs…:" (`Could not find the following source IDs: a, b`). */
export function idsInMessage(message: string): string[] {
  // The first "IDs", then the first colon after it: one pass over the message, however often "IDs" repeats.
  const at = /\bIDs\b/.exec(message);
  const colon = at ? message.indexOf(':', at.index + 3) : -1;
  if (colon < 0) return [];
  return message
    .slice(colon + 1)
    .split(/,\s*/)
    .map((s) => s.trim().replace(/[.;]$/, ''))
    .filter((s) => s !== '');
}

/** The span of a node: the property name for objects, arrays and missing children; the value otherwise. */
function spanOf(node: JsonNode, atKey: boolean): TextSpan {
  let target = node;
  if ((atKey || node.type === 'object' || node.type === 'array') && node.parent?.type === 'property') {
    target = node.parent.children?.[0] ?? node;
  }
  return { offset: target.offset, length: target.length };
}

/** The first character of the document's first non-blank line (the top-level object's brace, usually). */
function documentStart(text: string, root: JsonNode | undefined): TextSpan {
  if (root) return { offset: root.offset, length: 1 };
  const first = text.search(/\S/);
  return { offset: first < 0 ? 0 : first, length: first < 0 ? 0 : 1 };
}

/** The string values equal to `id`, in document order. */
function stringNodes(root: JsonNode, id: string): JsonNode[] {
  const found: JsonNode[] = [];
  const walk = (n: JsonNode): void => {
    if (n.type === 'string' && n.value === id && n.parent?.type === 'property' && n.parent.children?.[1] === n) {
      found.push(n);
    } else if (n.type === 'string' && n.value === id && n.parent?.type === 'array') {
      found.push(n);
    }
    for (const c of n.children ?? []) walk(c);
  };
  walk(root);
  return found;
}

function pathOf(node: JsonNode): PathSegment[] {
  const out: PathSegment[] = [];
  let n: JsonNode | undefined = node;
  while (n?.parent) {
    const parent: JsonNode = n.parent;
    if (parent.type === 'property') {
      out.unshift(String(parent.children?.[0]?.value));
      n = parent.parent;
    } else if (parent.type === 'array') {
      out.unshift(parent.children?.indexOf(n) ?? 0);
      n = parent;
    } else {
      n = parent;
    }
  }
  return out;
}

/** The child of an object (by key) or array (by index) node. */
function childAt(node: JsonNode, segment: PathSegment): JsonNode | undefined {
  if (node.type === 'object') {
    if (typeof segment !== 'string' && typeof segment !== 'number') return undefined;
    const key = String(segment);
    const property = node.children?.find((p) => p.type === 'property' && p.children?.[0]?.value === key);
    return property?.children?.[1];
  }
  if (node.type === 'array' && typeof segment === 'number') return node.children?.[segment];
  return undefined;
}

/** The closest node on `path`: the node itself, or the closest existing parent. */
function closest(root: JsonNode, path: readonly PathSegment[]): { node: JsonNode; depth: number } {
  let node = root;
  let depth = 0;
  for (const segment of path) {
    const next = childAt(node, segment);
    if (!next) break;
    node = next;
    depth++;
  }
  return { node, depth };
}

/**
 * Where a problem the service reported belongs in `text`: the JSON node at `path`; for a field that is missing, the
 * closest parent that exists (where it has to be added); for an empty path, a path or the first ID the message names;
 * otherwise the document's first line.
 */
export function locateServerProblem(
  root: JsonNode | undefined,
  text: string,
  path: string,
  message: string,
): LocatedProblem {
  const segments = serverPathSegments(path);
  if (!root) return { span: documentStart(text, root), path: segments, how: 'document' };
  if (segments.length > 0) {
    const { node, depth } = closest(root, segments);
    if (depth === 0) return { span: documentStart(text, root), path: [], how: 'document' };
    const exact = depth === segments.length;
    return { span: spanOf(node, !exact), path: segments.slice(0, depth), how: exact ? 'exact' : 'parent' };
  }
  const named = pathInMessage(message);
  if (named) {
    const { node, depth } = closest(root, named.path);
    if (depth > 0) {
      return { span: spanOf(node, depth < named.path.length), path: named.path.slice(0, depth), how: 'message' };
    }
  }
  for (const id of idsInMessage(message)) {
    const [first] = stringNodes(root, id);
    if (first) return { span: { offset: first.offset, length: first.length }, path: pathOf(first), how: 'message' };
  }
  return { span: documentStart(text, root), path: [], how: 'document' };
}
