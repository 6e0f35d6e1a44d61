#!/usr/bin/env python3
"""run_layout.py SRC: the layout sections of README.md ("## Layout") and docs/design.md
("## 1. Layout") match the tree (issue 33).

- Each lists exactly the top-level folders of SRC (not the hidden ones, not build*).
- In docs/design.md every file a folder's entry names (a word ending in .c, .h, .sh or
  .def, or a glob such as cmd_*.c) is a file of that folder (or below it), and every .c
  file of tools/, bench/ and passes/ (and its pass folders) is named in its folder's
  entry: by its name, by a glob or, in passes/, by its stem (bfco/ (space, worker ...)).
Prints each mismatch and exits 1; exits 0 when there is none."""
import fnmatch
import os
import re
import sys


def block(path, heading):
    """The folder entries of the first ``` block after the heading: {folder: text}."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        i = lines.index(heading)
    except ValueError:
        sys.exit(f"{path}: no heading {heading!r}")
    while i < len(lines) and lines[i].strip() != "```":
        i += 1
    entries, cur = {}, None
    for line in lines[i + 1:]:
        if line.strip() == "```":
            break
        m = re.match(r"^([a-z][a-z0-9_-]*)/\s", line + " ")
        if m:
            cur = m.group(1)
            entries[cur] = line[m.end():]
        elif cur and line.startswith(" "):
            entries[cur] += " " + line.strip()
    if not entries:
        sys.exit(f"{path}: no folders in the block after {heading!r}")
    return entries


def files_below(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        out += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return out


def main():
    src = sys.argv[1]
    fails = []
    tree = sorted(
        d for d in os.listdir(src)
        if os.path.isdir(os.path.join(src, d)) and not d.startswith(".")
        and not d.startswith("build"))
    docs = {
        "README.md": block(os.path.join(src, "README.md"), "## Layout"),
        "docs/design.md": block(os.path.join(src, "docs/design.md"), "## 1. Layout"),
    }
    for doc, entries in docs.items():
        for d in sorted(set(tree) - set(entries)):
            fails.append(f"{doc}: the layout does not list the folder {d}/")
        for d in sorted(set(entries) - set(tree)):
            fails.append(f"{doc}: the layout lists {d}/, which the tree does not have")
    design = docs["docs/design.md"]
    for d, text in design.items():
        if d not in tree:
            continue
        have = files_below(os.path.join(src, d))
        names = set(re.findall(r"[A-Za-z0-9_*./-]*[A-Za-z0-9_*]\.(?:c|h|sh|def)\b", text))
        for n in sorted(names):
            rel = n[len(d) + 1:] if n.startswith(d + "/") else n
            if not any(fnmatch.fnmatch(os.path.basename(h), os.path.basename(rel)) and
                       (h == rel or h.endswith("/" + rel) or "/" not in rel)
                       for h in have):
                fails.append(f"docs/design.md: {d}/ names {n}, which {d}/ does not have")
        if d not in ("tools", "bench", "passes"):
            continue
        words = set(re.findall(r"[A-Za-z0-9_]+", text))
        for h in sorted(have):
            if not h.endswith(".c"):
                continue
            b = os.path.basename(h)
            if any(fnmatch.fnmatch(b, os.path.basename(n)) for n in names):
                continue
            if d == "passes" and b[:-2] in words:
                continue
            fails.append(f"docs/design.md: {d}/ does not name {d}/{h}")
    for f in fails:
        print("FAIL: " + f)
    if fails:
        return 1
    print(f"{len(tree)} folders in both layouts; the files design.md names are there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
