#!/bin/bash
# An output folder this user may not replace (issue 55): another user's read-only folder in a sticky world-writable
# parent, as the system's temporary folder is (the swap used to fail only after the whole run, exit 1, naming a
# staging folder already deleted), the same without the sticky bit (it used to be replaced unseen, exit 0), and a
# read-only folder of the user's own. Each is refused before anything runs (exit 2), the folder untouched, nothing
# left beside it. Runs aisim as the user nobody, so it needs root (CI runs as root); elsewhere it is skipped (77).
set -u
AISIM=$1
SCENARIO=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to run aisim as another user"
command -v setpriv > /dev/null || skip "no setpriv (util-linux) to run aisim as another user"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody "$AISIM" check "$SCENARIO" > /dev/null 2>&1 ||
  skip "the user nobody cannot run $AISIM on $SCENARIO here (a folder on the way that others may not enter)"
chmod 755 "$OUT"

try() { # try NAME PARENT_MODE FOLDER_OWNER EXPECTED_MESSAGE
  local name=$1 mode=$2 owner=$3 message=$4
  local parent="$OUT/$name"
  mkdir -p "$parent/folder"
  echo "theirs" > "$parent/folder/results.json"
  chown -R "$owner" "$parent/folder"
  chmod 555 "$parent/folder"
  chmod "$mode" "$parent"
  as_nobody "$AISIM" run "$SCENARIO" --progress jsonl --out "$parent/folder" > "$OUT/$name.out" 2> "$OUT/$name.err"
  local rc=$?
  [ $rc -eq 2 ] && grep -q "$parent/folder: $message" "$OUT/$name.err" ||
    fail "$name: exit $rc: $(cat "$OUT/$name.err")"
  grep -q progress "$OUT/$name.out" && fail "$name: refused only after simulating"
  [ "$(cat "$parent/folder/results.json")" = theirs ] || fail "$name: the folder's results.json changed"
  [ "$(stat -c '%U %a' "$parent/folder")" = "$(id -un "${owner%%:*}") 555" ] ||
    fail "$name: the folder was replaced: $(stat -c '%U %a' "$parent/folder")"
  [ -z "$(ls -A "$parent" | grep -v '^folder$')" ] || fail "$name: left beside the folder: $(ls -A "$parent")"
}
try sticky 1777 root:root "owned by another user"
try world-writable 0777 root:root "owned by another user"
try own-read-only 1777 nobody:nogroup "cannot write the output folder (Permission denied)"
echo "foreign output folders: ok"
