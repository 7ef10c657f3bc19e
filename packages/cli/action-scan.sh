#!/usr/bin/env bash
# The scan step of action.yml. Always writes the SARIF report and the step outputs and
# exits 0 when a report was written, so the upload step runs; the last step of the
# action fails the job on findings. Inputs come as environment variables, never
# spliced into this script (a path input cannot inject a command).
set -uo pipefail

# A value in a workflow command's message, escaped as actions/toolkit's escapeData does.
escape_data() {
  local s=${1//%/%25}
  s=${s//$'\r'/%0D}
  printf '%s' "${s//$'\n'/%0A}"
}

sarif="${KEYWARD_SARIF:-keyward.sarif}"
# A line break in the report's name would start a new line in the log and in
# GITHUB_OUTPUT (a workflow command, or an output of someone else's choosing).
case "$sarif" in
  *$'\n'* | *$'\r'*)
    echo "::error title=Keyward::the sarif-file input holds a line break; name the report without one" >&2
    echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit 2
    ;;
esac
read -r -a paths <<< "${KEYWARD_PATHS:-.}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)

# A keyward the job installed on PATH (npm install --global in an earlier step) wins, unless it
# lies inside the checkout; else the published package of this action's version, installed in a
# fresh folder outside the checkout. Never npx in the checkout: npx runs the checkout's own
# node_modules/keyward when its version matches, and a pull request can commit one that reports
# nothing. npm runs there with no scripts, and reads no .npmrc of the checkout.
workspace="$(cd -P -- "${GITHUB_WORKSPACE:-$PWD}" && pwd -P)"
keyward=()
if found="$(command -v keyward 2>/dev/null)"; then
  real="$(node -p 'require("fs").realpathSync(process.argv[1])' "$found" 2>/dev/null)" || real="$found"
  case "$real" in
    "$workspace" | "$workspace"/*)
      echo "keyward: the keyward on PATH ($found) lies inside the checkout; installing the published one instead" >&2 ;;
    *) keyward=("$real") ;;
  esac
fi
if [ "${#keyward[@]}" -eq 0 ]; then
  version="${KEYWARD_PACKAGE_VERSION:-}"
  if [ -z "$version" ]; then
    version="$(node -p 'require(process.argv[1]).version' "${GITHUB_ACTION_PATH:-.}/package.json")" || exit 2
  fi
  tool="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/keyward-XXXXXX")" || exit 2
  echo '{ "private": true }' > "$tool/package.json"
  if ! (cd "$tool" && npm install --no-save --ignore-scripts --no-audit --no-fund "keyward@$version" >&2) ||
    ! [ -x "$tool/node_modules/.bin/keyward" ]; then
    echo "::error title=Keyward::could not install keyward@$(escape_data "$version")" >&2
    echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit 2
  fi
  keyward=("$tool/node_modules/.bin/keyward")
fi

# A baseline (the input, else the repository's committed .keyward-baseline.json) fails the job only
# on new keys; .keywardignore at the repository root is read by keyward itself.
baseline=()
if [ -n "${KEYWARD_BASELINE:-}" ]; then
  baseline=(--baseline "$KEYWARD_BASELINE")
# Whatever is there (a link included) goes to keyward, which reads only a plain file and names anything else.
elif [ -e .keyward-baseline.json ] || [ -L .keyward-baseline.json ]; then
  baseline=(--baseline .keyward-baseline.json)
fi

# What keyward itself prints (a git error naming a file, say) is not ours to vouch for:
# the runner reads no workflow command between stop-commands and its token
# (docs.github.com, "Workflow commands for GitHub Actions", Stopping and starting workflow commands).
token="keyward-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
echo "::stop-commands::$token"
"${keyward[@]}" scan --format sarif "${baseline[@]}" -- "${paths[@]}" > "$sarif"
code=$?
echo "::$token::"
if [ "$code" -gt 2 ] || ! [ -s "$sarif" ]; then
  echo "::error title=Keyward::keyward scan failed (exit $code) and wrote no report" >&2
  echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
  exit "$code"
fi

# History: every commit, so a shallow checkout is deepened first. The two reports become one run (code
# scanning takes one run per tool and category); the exit status is 1 if either found a key, else 2 if
# either could not read everything, else 0.
if [ "${KEYWARD_HISTORY:-false}" = "true" ]; then
  if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = "true" ]; then
    git -c core.hooksPath=/dev/null -c core.fsmonitor=false fetch --unshallow --no-tags --quiet ||
      echo "::warning title=Keyward::git fetch --unshallow failed; the history scan will say its history is cut short" >&2
  fi
  echo "::stop-commands::$token"
  "${keyward[@]}" scan --history --format sarif "${baseline[@]}" > "$sarif.history"
  history_code=$?
  echo "::$token::"
  if [ "$history_code" -gt 2 ] || ! [ -s "$sarif.history" ]; then
    echo "::error title=Keyward::keyward scan --history failed (exit $history_code) and wrote no report" >&2
    echo "exit-code=$history_code" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit "$history_code"
  fi
  node -e '
    const fs = require("fs");
    const [files, history] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const run = files.runs[0];
    const other = history.runs[0];
    const rules = run.tool.driver.rules;
    for (const rule of other.tool.driver.rules) if (!rules.some((r) => r.id === rule.id)) rules.push(rule);
    run.results = [...run.results, ...other.results].map((r) => ({ ...r, ruleIndex: rules.findIndex((x) => x.id === r.ruleId) }));
    const [a, b] = [run.invocations[0], other.invocations[0]];
    a.executionSuccessful = a.executionSuccessful && b.executionSuccessful;
    a.toolExecutionNotifications = [...a.toolExecutionNotifications, ...b.toolExecutionNotifications];
    if (other.properties) {
      run.properties ??= {};
      for (const [k, v] of Object.entries(other.properties)) run.properties[k] = (run.properties[k] ?? 0) + v;
    }
    fs.writeFileSync(process.argv[1], JSON.stringify(files, null, 2) + "\n");
  ' "$sarif" "$sarif.history" || exit 2
  rm -f "$sarif.history"
  if [ "$code" -eq 1 ] || [ "$history_code" -eq 1 ]; then code=1
  elif [ "$code" -eq 2 ] || [ "$history_code" -eq 2 ]; then code=2
  fi
fi

# The report names each finding by file, line and masked key; show them in the log too. A key the
# baseline already held or .keywardignore suppresses is a notice, not an error, and is not counted.
# A file name is the repository's to choose (a newline and "::warning ..." in it would
# be a workflow command of its own), so every value is escaped as GitHub's toolkit
# does (actions/toolkit packages/core/src/command.ts, escapeData / escapeProperty).
counts="$(node -e '
  const data = (s) => String(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const property = (s) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const results = log.runs.flatMap((run) => run.results ?? []);
  let findings = 0, suppressed = 0, unchanged = 0;
  for (const r of results) {
    const where = r.locations?.[0]?.physicalLocation;
    const file = property(where?.artifactLocation?.uri ?? "?");
    const line = property(where?.region?.startLine ?? 1);
    const col = property(where?.region?.startColumn ?? 1);
    const aside = (r.suppressions ?? []).length > 0 ? "suppressed" : r.baselineState === "unchanged" ? "unchanged" : "";
    if (aside === "suppressed") suppressed++;
    else if (aside === "unchanged") unchanged++;
    else findings++;
    const why = aside === "suppressed" ? ` [suppressed: ${r.suppressions[0].justification ?? ""}]` : aside ? " [unchanged since the baseline]" : "";
    console.error(`::${aside ? "notice" : "error"} file=${file},line=${line},col=${col},title=Keyward::${data((r.message?.text ?? "") + why)}`);
  }
  console.log(`${findings} ${suppressed} ${unchanged}`);
' "$sarif")" || counts="0 0 0"
read -r findings suppressed unchanged <<< "$counts"

{
  echo "findings=$findings"
  echo "suppressed=$suppressed"
  echo "unchanged=$unchanged"
  echo "exit-code=$code"
  echo "sarif-file=$sarif"
} >> "${GITHUB_OUTPUT:-/dev/null}"
echo "keyward: $findings key(s) found, $suppressed suppressed, $unchanged unchanged since the baseline; SARIF report in $sarif (exit $code)"
exit 0
