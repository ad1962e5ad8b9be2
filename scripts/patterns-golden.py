"""Golden values of HyperDX's event patterns, computed with drain3's own Python source.

Run by scripts/patterns-golden.mjs (which puts drain3 0.9.11 and two small import shims on PYTHONPATH): reads
{"lines": [...], "seeded": [{"name", "from", "to", "total", "rows": [{"text", "time", "level"}]}]} on stdin and
writes what HyperDX's pattern table computes from them on stdout:
  - "lines": drain3's cluster_id and template_mined for each line, one TemplateMiner for all of them, configured as
    HyperDX configures it (TemplateMinerConfig() with drain_extra_delimiters = list(string.punctuation));
  - "seeded": per range, HyperDX's grouping (usePatterns / useGroupedPatterns): escape sequences removed, grouped by
    cluster ID, count = max(round(rows x total / sampled), 1), trend per bucket scaled the same way, the pattern text
    rebuilt from the group's last row (reconstructTemplate). The grouping is run on the rows in three orders (time
    ascending, descending, shuffled) and must come out the same, so the seeded sample is order independent.
"""
import json
import math
import random
import re
import string
import sys

from drain3 import TemplateMiner
from drain3.template_miner_config import TemplateMinerConfig

# strip-ansi 6.0.1 (ansi-regex 5.0.1), the package HyperDX's app uses.
ANSI = re.compile(
    '[\u001B\u009B][\\[\\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]+)*|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]*)*)?\u0007)'
    '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-ntqry=><~]))'
)


def strip_ansi(text):
    return ANSI.sub('', text)


def js_round(x):
    return math.floor(x + 0.5)


def new_miner():
    config = TemplateMinerConfig()
    config.drain_extra_delimiters = list(string.punctuation)
    return TemplateMiner(None, config)


def reconstruct(original, template):
    # HyperDX's reconstructTemplate; JavaScript's \s written out (Python's \s also holds U+001C-U+001F and U+0085).
    normalized = re.sub('[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', original)
    tokens = [t for t in template.split(' ') if t]
    if not tokens:
        return normalized
    index = [0]

    def word(m):
        i = index[0]
        index[0] += 1
        return tokens[i] if i < len(tokens) else m.group(0)

    return re.sub('[A-Za-z0-9]+', word, normalized)


def trend_step_ms(start, end):
    # convertDateRangeToGranularityString(range, 24), for the ranges the fixture uses (15 m, 1 h, 6 h).
    size = math.ceil(math.floor((end - start) / 1000) / 24)
    for step in (15, 30, 60, 300, 900, 1800, 3600):
        if size <= step:
            return step * 1000
    raise ValueError('range too long for this script')


def group(rows, total, start, end):
    miner = new_miner()
    mined = [miner.add_log_message(strip_ansi(r['text'])) for r in rows]
    multiplier = total / len(rows) if total and rows else 1
    step = trend_step_ms(start, end)
    times = []
    t = start // step * step
    while t < end:
        times.append(t)
        t += step
    groups = {}
    for i, m in enumerate(mined):
        groups.setdefault(m['cluster_id'], []).append(i)
    patterns = []
    for cluster_id in sorted(groups):
        idx = groups[cluster_id]
        buckets = {t: 0 for t in times}
        for i in idx:
            b = rows[i]['time'] // step * step
            buckets[b] = buckets.get(b, 0) + 1
        last = idx[-1]
        count = max(js_round(len(idx) * multiplier), 1)
        patterns.append({
            'id': cluster_id,
            'pattern': reconstruct(strip_ansi(rows[last]['text']), mined[last]['template_mined']),
            'count': count,
            'level': rows[last].get('level'),
            'sampled': len(idx),
            'trend': [js_round(buckets[t] * multiplier) for t in times],
        })
    patterns.sort(key=lambda p: -p['count'])  # stable: ties keep cluster ID order
    return {'stepMs': step, 'times': times, 'sampled': len(rows), 'total': total, 'patterns': patterns}


def order_free(result):
    return sorted((p['pattern'], p['count'], p['sampled'], tuple(p['trend'])) for p in result['patterns'])


def main():
    data = json.load(sys.stdin)
    miner = new_miner()
    lines = []
    for line in data['lines']:
        r = miner.add_log_message(line)
        lines.append({'clusterId': r['cluster_id'], 'template': r['template_mined']})
    seeded = []
    for s in data['seeded']:
        rows = s['rows']
        result = group(rows, s['total'], s['from'], s['to'])
        for other in (list(reversed(rows)), random.Random(7).sample(rows, len(rows))):
            if order_free(group(other, s['total'], s['from'], s['to'])) != order_free(result):
                raise SystemExit(f"{s['name']}: the patterns depend on the order of the rows")
        seeded.append({'name': s['name'], 'from': s['from'], 'to': s['to'], **result})
    json.dump({'lines': lines, 'seeded': seeded}, sys.stdout, ensure_ascii=False)


main()
