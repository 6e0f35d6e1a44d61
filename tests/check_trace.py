#!/usr/bin/env python3
"""tests/check_trace.py TRACE ITERATIONS TASK...: the Chrome trace of a generated program
(tgc run --trace): every message has one flow arrow from its send's span to its receive's
(ids paired, each end inside a span of its DSP that names the message, the receive after
the send, peers, tags and bytes agreeing), every link span names its message, and each
TASK has one span per iteration 0 .. ITERATIONS-1, each with its iteration in its args.
Exit 1 with the first few problems printed."""
import collections
import json
import sys

path, iterations, tasks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
events = json.load(open(path))["traceEvents"]
bad = []
spans = collections.defaultdict(list)  # (pid, tid) -> spans
for e in events:
    if e["ph"] == "X":
        spans[(e["pid"], e["tid"])].append(e)
starts = {e["id"]: e for e in events if e["ph"] == "s"}
ends = {e["id"]: e for e in events if e["ph"] == "f"}
if len(starts) != sum(e["ph"] == "s" for e in events) or len(ends) != sum(
        e["ph"] == "f" for e in events):
    bad.append("a flow id is used twice")
if not starts or set(starts) != set(ends):
    bad.append("flows: %d starts, %d ends, %d unpaired" %
               (len(starts), len(ends), len(set(starts) ^ set(ends))))


def around(flow, names):
    """the span of the flow's DSP that holds the flow's time and names its message"""
    for s in spans[(0, flow["tid"])]:
        if (s["name"] in names and s["args"].get("msg") == flow["id"] and
                s["ts"] <= flow["ts"] <= s["ts"] + s["dur"]):
            return s
    return None


sends = [s for v in spans.values() for s in v if s["name"] == "send"]
if len(sends) != len(starts):
    bad.append("%d send spans, %d flows" % (len(sends), len(starts)))
for i in sorted(set(starts) & set(ends)):
    s, f = starts[i], ends[i]
    a, b = around(s, ("send",)), around(f, ("recv", "wait"))
    if not a or not b:
        bad.append("flow %d: no %s span around its end" % (i, "send" if not a else "receive"))
        continue
    if f["ts"] < s["ts"]:
        bad.append("flow %d: received before it was sent" % i)
    if (a["args"]["peer"] != f["tid"] or b["args"]["peer"] != s["tid"] or
            a["args"]["bytes"] != b["args"]["bytes"] or a["args"]["tag"] != b["args"]["tag"] or
            a["args"].get("iteration") != b["args"].get("iteration")):
        bad.append("flow %d: the send %s and the receive %s disagree" % (i, a["args"], b["args"]))
for s in (s for (pid, _), v in spans.items() if pid == 1 for s in v):
    if s["args"].get("msg") not in starts:
        bad.append("link span %s names no message sent" % s["name"])
        break
for t in tasks:
    its = sorted(s["args"].get("iteration", -1) for v in spans.values() for s in v
                 if s["name"] == t)
    if its != list(range(iterations)):
        bad.append("task %s: iterations %s ..., not 0 .. %d" % (t, its[:5], iterations - 1))
for b in bad[:10]:
    print("FAIL:", b)
if not bad:
    print("%d messages, each with its flow arrow; %d tasks with their iterations" %
          (len(starts), len(tasks)))
sys.exit(1 if bad else 0)
