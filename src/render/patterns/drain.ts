/**
 * The log template miner HyperDX runs for event pattern tiles: drain3 0.9.11's `TemplateMiner` (the `Drain` engine)
 * with its default configuration (depth 4, similarity 0.4, 100 children per node, no cluster limit, no masking,
 * numeric tokens parametrised, parameter `<*>`) and every ASCII punctuation character as an extra delimiter
 * (`drain_extra_delimiters = list(string.punctuation)`). Only `add_log_message` is needed: each message gets the ID
 * of its cluster and the cluster's template at that moment. Pure: no `vscode`, no network.
 *
 * Python's rules are kept where JavaScript's differ: `str.split()` splits on Python's whitespace (which includes
 * U+001C–U+001F and U+0085 and not U+FEFF), and `str.isdigit()` accepts the other digit characters besides the
 * decimal ones (superscripts, circled digits, …). Prefix tree keys are compared as strings, as Python's dict does.
 */

/** `string.punctuation`. */
export const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
/** drain3's parameter string: the mask prefix, `*`, the mask suffix. */
export const PARAM = '<*>';

const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPLIT = new RegExp(`[${PY_SPACE}${PUNCTUATION.replace(/[\\\]^-]/g, '\\$&')}]+`, 'u');
/** Python's `isdigit`: decimal digits and the other characters with a digit value (Unicode 14, as Python 3.11). */
const DIGIT = new RegExp(
  '[\\p{Nd}\\u00b2\\u00b3\\u00b9\\u1369-\\u1371\\u19da\\u2070\\u2074-\\u2079\\u2080-\\u2089\\u2460-\\u2468' +
    '\\u2474-\\u247c\\u2488-\\u2490\\u24ea\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788\\u278a-\\u2792' +
    '\\u{10a40}-\\u{10a43}\\u{10e60}-\\u{10e68}\\u{11052}-\\u{1105a}\\u{1f100}-\\u{1f10a}]',
  'u',
);

export interface MinedMessage {
  clusterId: number;
  /** The cluster's template after this message: tokens joined by one space, `<*>` for parameters. */
  template: string;
}

interface TreeNode {
  children: Map<string, TreeNode>;
  clusterIds: number[];
}

interface Cluster {
  id: number;
  tokens: string[];
  size: number;
}

const node = (): TreeNode => ({ children: new Map(), clusterIds: [] });

/** The tokens of a message: punctuation becomes space, then Python's `split()`. */
export function tokensOf(content: string): string[] {
  return content.split(SPLIT).filter((t) => t.length > 0);
}

export function hasDigit(token: string): boolean {
  return DIGIT.test(token);
}

export class TemplateMiner {
  private readonly depth = 4;
  private readonly maxNodeDepth = this.depth - 2;
  private readonly simTh = 0.4;
  private readonly maxChildren = 100;
  private readonly root = node();
  private readonly clusters = new Map<number, Cluster>();
  private counter = 0;

  /** `TemplateMiner.add_log_message(message)` → its `cluster_id` and `template_mined`. */
  addLogMessage(message: string): MinedMessage {
    const tokens = tokensOf(message);
    let cluster = this.treeSearch(tokens);
    if (!cluster) {
      this.counter += 1;
      cluster = { id: this.counter, tokens, size: 1 };
      this.clusters.set(cluster.id, cluster);
      this.addToTree(cluster);
    } else {
      const template = cluster.tokens;
      cluster.tokens = tokens.map((t, i) => (template[i] === t ? t : PARAM));
      cluster.size += 1;
    }
    return { clusterId: cluster.id, template: cluster.tokens.join(' ') };
  }

  private treeSearch(tokens: string[]): Cluster | undefined {
    const count = tokens.length;
    let cur = this.root.children.get(String(count));
    if (!cur) return undefined;
    if (count === 0) return this.clusters.get(cur.clusterIds[0]!);
    let depth = 1;
    for (const token of tokens) {
      if (depth >= this.maxNodeDepth || depth === count) break;
      const next: TreeNode | undefined = cur.children.get(token) ?? cur.children.get(PARAM);
      if (!next) return undefined;
      cur = next;
      depth += 1;
    }
    return this.fastMatch(cur.clusterIds, tokens);
  }

  private fastMatch(ids: readonly number[], tokens: readonly string[]): Cluster | undefined {
    let maxSim = -1;
    let maxParams = -1;
    let best: Cluster | undefined;
    for (const id of ids) {
      const cluster = this.clusters.get(id);
      if (!cluster) continue;
      let same = 0;
      let params = 0;
      cluster.tokens.forEach((t, i) => {
        if (t === PARAM) params += 1;
        else if (t === tokens[i]) same += 1;
      });
      const sim = cluster.tokens.length === 0 ? 1 : same / cluster.tokens.length;
      if (sim > maxSim || (sim === maxSim && params > maxParams)) {
        maxSim = sim;
        maxParams = params;
        best = cluster;
      }
    }
    return maxSim >= this.simTh ? best : undefined;
  }

  private addToTree(cluster: Cluster): void {
    const count = cluster.tokens.length;
    const key = String(count);
    let cur = this.root.children.get(key);
    if (!cur) this.root.children.set(key, (cur = node()));
    if (count === 0) {
      cur.clusterIds = [cluster.id];
      return;
    }
    let depth = 1;
    for (const token of cluster.tokens) {
      if (depth >= this.maxNodeDepth || depth >= count) {
        cur.clusterIds = [...cur.clusterIds.filter((id) => this.clusters.has(id)), cluster.id];
        break;
      }
      const children: Map<string, TreeNode> = cur.children;
      let next = children.get(token);
      if (!next) {
        if (hasDigit(token)) {
          next = children.get(PARAM);
          if (!next) children.set(PARAM, (next = node()));
        } else if (children.has(PARAM)) {
          if (children.size < this.maxChildren) children.set(token, (next = node()));
          else next = children.get(PARAM)!;
        } else if (children.size + 1 < this.maxChildren) {
          children.set(token, (next = node()));
        } else if (children.size + 1 === this.maxChildren) {
          children.set(PARAM, (next = node()));
        } else {
          next = children.get(PARAM)!;
        }
      }
      cur = next;
      depth += 1;
    }
  }
}
