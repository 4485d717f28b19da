#!/usr/bin/env python3
"""The documentation's output blocks, produced by the program: each fenced block that follows a line
`<!-- output: aisim ARGS -->` in README.md or a page of docs/ is what `aisim ARGS` prints, run from a scratch
folder that sees the source tree's scenarios/ (so relative paths print as the page shows them). Wall times are
masked ("simulated in 0.02 s").

  readme_blocks.py check AISIM PAGE...   exit 1 with a diff when a block is not what the build prints
  readme_blocks.py write AISIM PAGE...   rewrite the blocks with what the build prints (make readme)
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

MARK = re.compile(r"^<!-- output: aisim (.*) -->$")
# What changes from run to run or machine to machine: wall time, nothing else.
MASKS = [(re.compile(r"simulated in [0-9.]+ s"), "simulated in <wall> s"),
         (re.compile(r"in [0-9.]+ (s|ms) on [0-9]+ workers?"), "in <wall> on <n> workers")]


def masked(text):
    for pattern, repl in MASKS:
        text = pattern.sub(repl, text)
    return text


def run(aisim, args, source):
    with tempfile.TemporaryDirectory(prefix="aisim-readme-") as scratch:
        os.symlink(os.path.join(source, "scenarios"), os.path.join(scratch, "scenarios"))
        done = subprocess.run([aisim] + shlex.split(args), cwd=scratch, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"`aisim {args}` exited {done.returncode}:\n{done.stderr}")
        return done.stdout


def blocks(lines):
    """(args, first line of the block's body, line after its last) for each marked block."""
    for i, line in enumerate(lines):
        m = MARK.match(line.rstrip("\n"))
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit(f"line {i + 1}: an output mark must be followed by a fenced block")
        end = i + 2
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        yield m.group(1), i + 2, end


def source_tree(page):
    """The folder above the page that holds scenarios/: the repository root, for README.md and docs/*.md alike."""
    d = os.path.dirname(os.path.abspath(page))
    while not os.path.isdir(os.path.join(d, "scenarios")):
        if os.path.dirname(d) == d:
            sys.exit(f"{page}: no scenarios/ folder above it")
        d = os.path.dirname(d)
    return d


def check_page(mode, aisim, page):
    """The page's blocks (how many) and the diffs of those that drifted; `write` rewrites them in place."""
    source = source_tree(page)
    lines = open(page).readlines()
    found = list(blocks(lines))
    drift = []
    for args, start, end in reversed(found):  # from the end, so that rewriting keeps earlier positions
        printed = run(aisim, args, source)
        shown = "".join(lines[start:end])
        if masked(printed) != masked(shown):
            drift.append("".join(difflib.unified_diff(masked(shown).splitlines(True), masked(printed).splitlines(True),
                                                      f"{page} (line {start + 1})", f"aisim {args}")))
            lines[start:end] = [printed]
    if mode == "write" and drift:
        open(page, "w").write("".join(lines))
    return len(found), list(reversed(drift))


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "write"):
        sys.exit(__doc__)
    mode, aisim, pages = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3:]
    total, drift = 0, []
    for page in pages:
        n, d = check_page(mode, aisim, page)
        total += n
        drift += d
    if total == 0:
        sys.exit("no output blocks marked in " + ", ".join(pages))
    if mode == "write":
        print(f"{total} output blocks, {len(drift)} rewritten")
        return
    if drift:
        print("The documentation shows output the build no longer prints; `make readme` rewrites the blocks (then "
              "make the text around them use the new numbers):\n")
        print("\n".join(drift))
        sys.exit(1)
    print(f"{total} output blocks in {len(pages)} pages match what the build prints")


main()
