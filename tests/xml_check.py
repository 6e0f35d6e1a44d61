#!/usr/bin/env python3
"""tests/xml_check.py FILE... - every FILE (an SVG or HTML page tgc wrote) must be
well-formed XML: browsers refuse an SVG that is not, and a control character, an unescaped
'<' or '&' or an unclosed element shows here.  Prints each failure; exit status 1 if any,
2 without a file (a harness that checked nothing must not pass)."""
import sys
import xml.etree.ElementTree as ET


def main(paths):
    if not paths:
        print("xml_check: no file given", file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except OSError as e:
            print(f"FAIL: {path} cannot be read: {e}")
            bad = 1
            continue
        except ET.ParseError as e:
            print(f"FAIL: {path} is not well-formed XML: {e}")
            bad = 1
            continue
        tag = root.tag.rsplit("}", 1)[-1]
        if tag not in ("svg", "html"):
            print(f"FAIL: {path}: the root element is <{tag}>, not <svg> or <html>")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
