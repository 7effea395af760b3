#!/usr/bin/env bash
# Dependency hygiene (CI runs it after `npm ci`): the production tree is complete and exact, and has no high or
# critical advisory. From machines whose registry mirror does not serve the advisory API (it answers 405), the
# audit is skipped with one line saying so; any other audit failure fails.
set -uo pipefail
cd "$(dirname "$0")/.."

# Nothing missing, invalid (a version outside its range) or extraneous (installed but not in the lockfile's tree).
# npm 11 marks an extraneous package in its output yet exits 0, so the output is read as well as the exit code.
ls_out=$(npm ls --all --omit=dev 2>&1)
ls_rc=$?
problems=$(grep -E " (extraneous|invalid)\b|missing:|UNMET DEPENDENCY|npm error" <<<"$ls_out")
if [ "$ls_rc" -ne 0 ] || [ -n "$problems" ]; then
  echo "${problems:-$ls_out}" >&2
  echo "npm ls --all --omit=dev: the installed production tree does not match package.json and the lockfile" >&2
  exit 1
fi
echo "npm ls --all --omit=dev: clean ($(grep -c . <<<"$ls_out") lines)"

audit_out=$(npm audit --omit=dev --audit-level=high 2>&1)
audit_rc=$?
if [ "$audit_rc" -eq 0 ]; then
  echo "npm audit --omit=dev: no high or critical advisory"
elif grep -qE "audit endpoint returned an error|Method Not Allowed|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT" <<<"$audit_out"; then
  reason=$(grep -oE "[0-9]{3} [A-Za-z ]+ - [A-Z]+ [^ ]+|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT" <<<"$audit_out" | head -n 1)
  echo "npm audit skipped: the advisory service did not answer (${reason:-no answer})"
else
  echo "$audit_out" >&2
  echo "npm audit --omit=dev: high or critical advisories (above)" >&2
  exit 1
fi
