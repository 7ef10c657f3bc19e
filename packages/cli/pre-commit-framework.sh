#!/bin/sh
# Keyward's hook for the pre-commit framework (.pre-commit-hooks.yaml, id "keyward").
# pre-commit has set unstaged changes aside, so the files it passes hold what the
# commit will hold. keyward comes from PATH, and only from outside the repository
# being committed: never npx, never the project's node_modules/.bin (a cloned
# repository could supply that keyward, and it would report a key as clean).
[ "$#" -gt 0 ] || exit 0
BYPASS="  To commit once without it: SKIP=keyward git commit (or git commit --no-verify for every hook)"

# The real path of $1, following each symbolic link (readlink without -f: POSIX enough for macOS and busybox).
real_path() {
  p=$1
  n=0
  while [ -L "$p" ] && [ "$n" -lt 40 ]; do
    l=$(readlink -- "$p") || return 1
    case $l in
      /*) p=$l ;;
      *) p=$(dirname -- "$p")/$l ;;
    esac
    n=$((n + 1))
  done
  d=$(cd -P -- "$(dirname -- "$p")" 2>/dev/null && pwd -P) || return 1
  printf '%s/%s\n' "$d" "$(basename -- "$p")"
}

top=$(git rev-parse --show-toplevel 2>/dev/null) && top=$(cd -P -- "$top" && pwd -P) || {
  echo "Keyward's pre-commit hook (pre-commit id: keyward): not inside a git work tree." >&2
  exit 2
}
found=$(command -v keyward 2>/dev/null) || found=
real=
[ -n "$found" ] && real=$(real_path "$found")
case "$real" in
  '')
    echo "Keyward's pre-commit hook (pre-commit id: keyward): the keyward command was not found on PATH." >&2
    echo "  Fix: npm install --global keyward (it needs Node.js 20 or newer). A keyward in this project's node_modules is not run: the repository could supply it." >&2
    echo "$BYPASS" >&2
    exit 1
    ;;
  "$top" | "$top"/*)
    echo "Keyward's pre-commit hook (pre-commit id: keyward): the keyward on PATH ($found) lies inside this repository ($real), which could supply it; it is not run." >&2
    echo "  Fix: npm install --global keyward, and keep this repository's folders off PATH." >&2
    echo "$BYPASS" >&2
    exit 1
    ;;
esac
# With a committed baseline (keyward scan --write-baseline .keyward-baseline.json) only new keys stop a commit.
baseline=
# Whatever is there (a link included) goes to keyward, which reads only a plain file and names anything else.
{ [ -e .keyward-baseline.json ] || [ -L .keyward-baseline.json ]; } && baseline=.keyward-baseline.json
"$real" scan ${baseline:+--baseline "$baseline"} -- "$@"
status=$?
case $status in
  0) exit 0 ;;
  1) echo "Keyward's pre-commit hook refused this commit: the files above hold a key. Remove it (rotate it if it is real), or mark a false finding with a keyward-ignore comment." >&2 ;;
  *) echo "Keyward's pre-commit hook could not check this commit (keyward exited with $status; see above)." >&2 ;;
esac
echo "$BYPASS" >&2
exit $status
