#!/usr/bin/env python3
"""The folder maps as a test: every folder of models/, sim/, app/ and gui/ that holds source files has a README.md
that names each of them (in backquotes: `file.cpp`, or `name.hpp/.cpp` for a pair) and says what the folder uses
(a line starting "Uses" or "May use"); a README that names a source file the folder does not hold fails; no
README.md in the repository sends its reader outside it (../shared/, a design note a clone does not have); and every
relative link of a README.md or a page of docs/ lands on something that exists.
Usage: check_readmes.py SOURCE_TREE, or check_readmes.py --self-test (the checks tried on a tree broken on purpose)."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

if sys.argv[1:] == ["--self-test"]:
    with tempfile.TemporaryDirectory() as t:
        tree = pathlib.Path(t)
        for top in ("models", "sim", "app", "gui"):
            (tree / top).mkdir()
        good = tree / "sim" / "good"
        good.mkdir()
        (good / "a.hpp").write_text("")
        (good / "a.cpp").write_text("")
        (good / "README.md").write_text("# good\n\nUses `../models/`.\n\n| `a.hpp/.cpp` | a |\n")
        bad = tree / "models" / "bad"
        bad.mkdir()
        (bad / "kept.cpp").write_text("")
        (bad / "README.md").write_text("# bad\n\n| `gone.hpp/.cpp` | removed long ago |\n")
        (tree / "gui" / "x.cpp").write_text("")
        (tree / "README.md").write_text("See ../shared/DESIGN.md.\n")
        (tree / "docs").mkdir()
        (tree / "docs" / "page.md").write_text("[the format](../scenarios/README.md), [ok](page.md)\n")
        out = subprocess.run([sys.executable, __file__, str(tree)], capture_output=True, text=True).stdout
        want = ["models/bad/README.md: does not name kept.cpp", "models/bad/README.md: names gone.cpp",
                "models/bad/README.md: names gone.hpp", "models/bad/README.md: no line starting",
                "gui/: holds 1 source files and no README.md", "README.md: points outside the repository",
                "docs/page.md: links to ../scenarios/README.md"]
        missed = [w for w in want if w not in out] + (["sim/good/ was flagged"] if "sim/good" in out else [])
        if missed:
            print("the checker missed:\n" + "\n".join(missed) + "\nit said:\n" + out)
            sys.exit(1)
        print(f"the checker finds all {len(want)} planted defects and passes the good folder")
        sys.exit(0)

SOURCE = {".cpp", ".hpp", ".in", ".js", ".css", ".cmake"}
root = pathlib.Path(sys.argv[1]).resolve()
failures = []


def named_files(text):
    """File names a README gives in backquotes, `a.hpp/.cpp` and `a.hpp`, `a.cpp` alike."""
    names = set()
    for token in re.findall(r"`([^`\s]+)`", text):
        if "/" in token.rstrip("/") and not re.match(r"^[\w.-]+\.\w+(/\.\w+)+$", token):
            continue  # a path elsewhere (../platform/, sim/engine/flows.hpp): not this folder's file
        first, *more = token.split("/")
        stem, dot, ext = first.rpartition(".")
        if not dot or not stem:
            continue
        names.add(first)
        names.update(stem + "." + e.lstrip(".") for e in more if e)
    return names


def is_source(p):
    return p.is_file() and (p.suffix in SOURCE or p.name.endswith(".cpp.in")) and p.name != "CMakeLists.txt"


for top in ("models", "sim", "app", "gui"):
    for folder in sorted([root / top] + [d for d in (root / top).rglob("*") if d.is_dir()]):
        sources = sorted(p.name for p in folder.iterdir() if is_source(p))
        if not sources:
            continue
        rel = folder.relative_to(root)
        readme = folder / "README.md"
        if not readme.is_file():
            failures.append(f"{rel}/: holds {len(sources)} source files and no README.md naming them")
            continue
        text = readme.read_text()
        names = named_files(text)
        for s in sources:
            if s not in names:
                failures.append(f"{rel}/README.md: does not name {s}")
        for n in sorted(names):
            if pathlib.Path(n).suffix in SOURCE and not (folder / n).exists():
                failures.append(f"{rel}/README.md: names {n}, which {rel}/ does not hold")
        if not re.search(r"^(Uses|May use)\b", text, re.M):
            failures.append(f"{rel}/README.md: no line starting \"Uses\" or \"May use\" saying what the folder may use")



def repository_pages():
    """Every README.md of the repository and every page of docs/. Build and results folders are never entered:
    other tests create and remove folders there while this one runs."""
    found = []
    for folder, subfolders, files in os.walk(root, onerror=lambda error: None):
        if pathlib.Path(folder) == root:
            subfolders[:] = [d for d in subfolders if not d.startswith(("build", ".")) and d not in ("results",
                                                                                                 "node_modules")]
        found += [pathlib.Path(folder) / "README.md"] if "README.md" in files else []
    return sorted(found) + sorted((root / "docs").glob("*.md"))


for readme in repository_pages():
    rel = readme.relative_to(root)
    text = readme.read_text()
    for m in re.finditer(r"\.\./(?:\.\./)*shared/", text):
        failures.append(f"{rel}: points outside the repository ({m.group(0)}...)")
        break
    # Every relative link lands on a file or folder of the repository (pages moved to docs/ keep their links).
    for m in re.finditer(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        target = m.group(1)
        if re.match(r"^[a-z]+:", target):
            continue
        if not (readme.parent / target).exists():
            failures.append(f"{rel}: links to {target}, which does not exist")

if failures:
    print("folder maps out of date:\n" + "\n".join(failures))
    sys.exit(1)
print("every source folder's README names its files and what it uses; no README points outside the repository; "
      "every link of the READMEs and docs/ resolves")
