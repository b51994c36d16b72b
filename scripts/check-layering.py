#!/usr/bin/python3
"""Checks every `#include "perfdojo/..."` against the layer table of
docs/architecture.md: a component includes only components of its own
layer or of lower layers. Prints each violation; exit status 1 if any."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))

# The table between the layering-table markers: | layer | components | ...
doc = open(os.path.join(root, "docs", "architecture.md")).read()
table = doc.split("<!-- layering-table: begin -->")[1].split(
    "<!-- layering-table: end -->")[0]
layer_of = {}
for row in table.splitlines():
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if len(cells) < 2 or not cells[0].isdigit():
        continue
    for component in cells[1].split(","):
        layer_of[component.strip()] = int(cells[0])


def component_of(path):
    """The longest table entry that prefixes a path below include/perfdojo,
    lib or tools."""
    best = None
    for name in layer_of:
        if path == name or path.startswith(name + "/"):
            if best is None or len(name) > len(best):
                best = name
    return best


violations = []
unknown = set()
for top, strip in (("include/perfdojo", "include/perfdojo/"), ("lib", "lib/"),
                   ("tools", "")):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            if not name.endswith((".h", ".cpp", ".td", ".inc")):
                continue
            path = os.path.relpath(os.path.join(dirpath, name), root)
            source = "tools" if top == "tools" else component_of(
                path[len(strip):])
            if source is None:
                unknown.add(path)
                continue
            for number, line in enumerate(open(os.path.join(root, path)), 1):
                m = re.match(r'\s*#?include\s+"perfdojo/([^"]+)"', line)
                if not m:
                    continue
                target = component_of(m.group(1))
                if target is None:
                    unknown.add(m.group(1))
                elif layer_of[target] > layer_of[source]:
                    violations.append(
                        f"{path}:{number}: {source} (layer {layer_of[source]}) "
                        f"includes {target} (layer {layer_of[target]})")

for path in sorted(unknown):
    print(f"{path}: not in any component of docs/architecture.md")
for v in violations:
    print(v)
print(f"layering: {len(violations)} violation(s), {len(unknown)} unplaced")
sys.exit(1 if violations or unknown else 0)
