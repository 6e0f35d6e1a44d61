#!/usr/bin/env python3
"""tests/doc_examples.py TGC SOURCE FILE...: runs every command example of the given
Markdown files (README.md, docs/*.md) and compares its output with the documented one,
so that the documentation cannot drift from the code (docs/testing.md).

An example is either
  - a fenced block whose lines start with "$ ": each "$ tgc ..." line is run, and the
    lines after it (up to the next "$ " line) are its expected output, stdout and stderr
    together; a "$ " line that is not tgc (cmake, xdg-open, a program) is not run and
    must have no output shown; or
  - a fenced block preceded by a line "<!-- example: tgc ... -->" (an HTML comment,
    not shown): the block is the expected output of that command; a ```json block is
    compared as a subset (every key the document shows is in the output with the value
    shown; an array shows a prefix of the output's elements).
In expected text, a line "..." stands for any number of lines, "..." inside a line for
any text; the seconds column of tgc opt's table and what measures time are masked.
Commands run in a scratch folder in which testcases/ is the source tree's (and ../shared
the shared one's, when there); "/tmp/" in a command is that folder's tmp/.  An example
whose command names ../shared when it is absent is skipped, with a message.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

OPT_ROW = re.compile(r"^(\s+(none|ma|cp|bfco|es)\s+.*\s)(\d+\.\d+)$")
EXAMPLE = re.compile(r"^<!-- example: (tgc .*?) -->$")


def mask(line):
    m = OPT_ROW.match(line)
    if m:  # the seconds column of tgc opt's table
        return m.group(1) + "<s>"
    return line


def blocks(path):
    """(line number, info string, lines, marker command or None) of each fenced block"""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i, out = 0, []
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            marker = None
            if i > 0:
                mm = EXAMPLE.match(lines[i - 1].strip())
                marker = mm.group(1) if mm else None
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((i + 1, m.group(1), lines[i + 1 : j], marker))
            i = j + 1
        else:
            i += 1
    return out


def like(pattern, text):
    """a line with "..." wildcards against a line"""
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*".join(parts), text, re.S) is not None


def match_lines(want, got):
    """want (with "..." lines) against got; None or a description of the first difference"""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(want):
            r = j == len(got)
        elif want[i].strip() == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and like(mask(want[i]), mask(got[j])) and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    if m(0, 0):
        return None
    # the first line that differs, for the message
    for k, w in enumerate(want):
        if w.strip() == "...":
            break
        g = got[k] if k < len(got) else "<no line>"
        if not like(mask(w), mask(g)):
            return f"line {k + 1}: documented\n    {w}\n  tgc prints\n    {g}"
    return "the lines differ (documented %d, printed %d)" % (len(want), len(got))


def subset(want, got, where="/"):
    """None if the JSON value want is shown by got, else where it is not"""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{where}: not an object"
        for k, v in want.items():
            if k not in got:
                return f"{where}{k}: not in the output"
            r = subset(v, got[k], f"{where}{k}/")
            if r:
                return r
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) < len(want):
            return f"{where}: not an array of at least {len(want)}"
        for k, v in enumerate(want):
            r = subset(v, got[k], f"{where}{k}/")
            if r:
                return r
        return None
    if isinstance(want, float) or isinstance(got, float):
        if isinstance(want, bool) or isinstance(got, bool) or got is None or want is None:
            return None if want == got else f"{where}: documented {want!r}, printed {got!r}"
        ok = abs(float(want) - float(got)) <= 1e-9 * max(1.0, abs(float(got)))
        return None if ok else f"{where}: documented {want!r}, printed {got!r}"
    return None if want == got else f"{where}: documented {want!r}, printed {got!r}"


class Runner:
    def __init__(self, tgc, src):
        self.tgc, self.src = tgc, src
        self.root = tempfile.mkdtemp(prefix="tgc-doc-")
        self.cwd = os.path.join(self.root, "repo")
        os.makedirs(os.path.join(self.root, "tmp"))
        os.makedirs(self.cwd)
        os.symlink(os.path.join(src, "testcases"), os.path.join(self.cwd, "testcases"))
        shared = os.path.normpath(os.path.join(src, "..", "shared"))
        self.shared = os.path.isdir(shared)
        if self.shared:
            os.symlink(shared, os.path.join(self.root, "shared"))

    def run(self, cmd):
        tmp = os.path.join(self.root, "tmp") + "/"
        cmd = cmd.replace("/tmp/", tmp)
        env = dict(os.environ, TMPDIR=os.path.join(self.root, "tmp"))
        p = subprocess.run(
            ["sh", "-c", 'tgc() { "$TGC_EXE" "$@"; }; ' + cmd],
            cwd=self.cwd,
            env=dict(env, TGC_EXE=self.tgc),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
        out = p.stdout.decode("utf-8", "replace").replace(tmp, "/tmp/")
        return out.rstrip("\n").split("\n") if out.strip() else []

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def main():
    tgc, src, files = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
    fails, ran, skipped = 0, 0, 0
    for path in files:
        rel = os.path.relpath(path, src)
        for line, info, body, marker in blocks(path):
            cmds = [l for l in body if l.startswith("$ ")]
            if not cmds and not marker:
                continue
            text = "\n".join(body) + (marker or "")
            r = Runner(tgc, src)
            try:
                if "../shared" in text and not r.shared:
                    print(f"{rel}:{line}: skipped: ../shared is absent")
                    skipped += 1
                    continue
                if marker:
                    got = r.run(marker)
                    ran += 1
                    if info == "json":
                        try:
                            want = json.loads("\n".join(body))
                            have = json.loads("\n".join(got))
                        except ValueError as e:
                            print(f"FAIL: {rel}:{line}: {marker}: not JSON: {e}")
                            fails += 1
                            continue
                        d = subset(want, have)
                    else:
                        d = match_lines(body, got)
                    if d:
                        print(f"FAIL: {rel}:{line}: {marker}: {d}")
                        fails += 1
                    continue
                k = 0
                while k < len(body):
                    if not body[k].startswith("$ "):
                        k += 1
                        continue
                    cmd = body[k][2:]
                    k += 1
                    want = []
                    while k < len(body) and not body[k].startswith("$ "):
                        want.append(body[k])
                        k += 1
                    while want and not want[-1].strip():
                        want.pop()
                    cmd = re.sub(r"\s+#.*$", "", cmd)
                    if not cmd.startswith("tgc "):
                        if want:
                            print(f"FAIL: {rel}:{line}: '{cmd}' shows output but is not tgc: "
                                  "not checked")
                            fails += 1
                        continue
                    got = r.run(cmd)
                    ran += 1
                    if len(want) == 1 and want[0].startswith("{") and got[:1] == ["{"]:
                        # one line standing for a JSON object: compared on its one-line form
                        try:
                            got = [json.dumps(json.loads("\n".join(got)), separators=(", ", ": "))]
                            want = [re.sub(r"^\{ ", "{", want[0]).replace(" }", "}")]
                        except ValueError:
                            pass
                    d = match_lines(want, got)
                    if d:
                        print(f"FAIL: {rel}:{line}: $ {cmd}: {d}")
                        fails += 1
            finally:
                r.close()
    print(f"doc examples: {ran} commands run, {fails} failed, {skipped} skipped")
    if ran == 0:
        print("FAIL: no example ran")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
