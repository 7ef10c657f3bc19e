#!/bin/sh
# Keyward's hook for the pre-commit framework (.pre-commit-hooks.yaml, id "keyward").
# pre-commit has set unstaged changes aside, so the files it passes hold what the
# commit will hold. No path of any machine in here: keyward comes from PATH, else
# from the project's node_modules (npx --no-install, offline: a commit downloads nothing).
[ "$#" -gt 0 ] || exit 0
# With a committed baseline (keyward scan --write-baseline .keyward-baseline.json) only new keys stop a commit.
baseline=
[ -f .keyward-baseline.json ] && baseline=.keyward-baseline.json
if command -v keyward >/dev/null 2>&1; then
  keyward scan ${baseline:+--baseline "$baseline"} -- "$@"
elif command -v npx >/dev/null 2>&1 && npm_config_offline=true npx --no-install keyward version >/dev/null 2>&1; then
  npm_config_offline=true npx --no-install keyward scan ${baseline:+--baseline "$baseline"} -- "$@"
else
  echo "Keyward's pre-commit hook (pre-commit id: keyward): the keyward command was not found (not on PATH, not in this project's node_modules)." >&2
  echo "  Fix: npm install --save-dev keyward (or npm install --global keyward); it needs Node.js 20 or newer." >&2
  echo "  To commit once without it: SKIP=keyward git commit (or git commit --no-verify for every hook)" >&2
  exit 1
fi
status=$?
case $status in
  0) exit 0 ;;
  1) echo "Keyward's pre-commit hook refused this commit: the files above hold a key. Remove it (rotate it if it is real), or mark a false finding with a keyward-ignore comment." >&2 ;;
  *) echo "Keyward's pre-commit hook could not check this commit (keyward exited with $status; see above)." >&2 ;;
esac
echo "  To commit once without it: SKIP=keyward git commit (or git commit --no-verify for every hook)" >&2
exit $status
