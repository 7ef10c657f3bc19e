#!/usr/bin/env bash
# The scan step of action.yml. Always writes the SARIF report and the step outputs and
# exits 0 when a report was written, so the upload step runs; the last step of the
# action fails the job on findings. Inputs come as environment variables, never
# spliced into this script (a path input cannot inject a command).
set -uo pipefail

sarif="${KEYWARD_SARIF:-keyward.sarif}"
read -r -a paths <<< "${KEYWARD_PATHS:-.}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)

# A keyward the job installed (npm install in an earlier step) wins; else the
# published package of this action's version, fetched by npx.
if command -v keyward >/dev/null 2>&1; then
  keyward=(keyward)
else
  version="${KEYWARD_PACKAGE_VERSION:-}"
  if [ -z "$version" ]; then
    version="$(node -p 'require(process.argv[1]).version' "${GITHUB_ACTION_PATH:-.}/package.json")" || exit 2
  fi
  keyward=(npx --yes "keyward@$version")
fi

# A baseline (the input, else the repository's committed .keyward-baseline.json) fails the job only
# on new keys; .keywardignore at the repository root is read by keyward itself.
baseline=()
if [ -n "${KEYWARD_BASELINE:-}" ]; then
  baseline=(--baseline "$KEYWARD_BASELINE")
elif [ -f .keyward-baseline.json ]; then
  baseline=(--baseline .keyward-baseline.json)
fi

"${keyward[@]}" scan --format sarif "${baseline[@]}" -- "${paths[@]}" > "$sarif"
code=$?
if [ "$code" -gt 2 ] || ! [ -s "$sarif" ]; then
  echo "::error title=Keyward::keyward scan failed (exit $code) and wrote no report" >&2
  echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
  exit "$code"
fi

# The report names each finding by file, line and masked key; show them in the log too. A key the
# baseline already held or .keywardignore suppresses is a notice, not an error, and is not counted.
counts="$(node -e '
  const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const results = log.runs.flatMap((run) => run.results ?? []);
  let findings = 0, suppressed = 0, unchanged = 0;
  for (const r of results) {
    const where = r.locations?.[0]?.physicalLocation;
    const file = where?.artifactLocation?.uri ?? "?";
    const line = where?.region?.startLine ?? 1;
    const col = where?.region?.startColumn ?? 1;
    const aside = (r.suppressions ?? []).length > 0 ? "suppressed" : r.baselineState === "unchanged" ? "unchanged" : "";
    if (aside === "suppressed") suppressed++;
    else if (aside === "unchanged") unchanged++;
    else findings++;
    const why = aside === "suppressed" ? ` [suppressed: ${r.suppressions[0].justification ?? ""}]` : aside ? " [unchanged since the baseline]" : "";
    console.error(`::${aside ? "notice" : "error"} file=${file},line=${line},col=${col},title=Keyward::${r.message.text}${why}`);
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
