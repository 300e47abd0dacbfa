#!/usr/bin/env bash
# Non-test source lines of the packages at a commit (default: the working tree's HEAD), and of packages/server/src:
# what docs/architecture.md's size rule and issue notes quote. Tests, test support (testkit, testing/, __fixtures__),
# the dashboard's build output and generated files are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-HEAD}"
sources() {
  git ls-tree -r --name-only "$rev" -- packages |
    grep -E '\.(ts|tsx)$' |
    grep -vE '\.test\.tsx?$|/test/|/testing/|__fixtures__|^packages/testkit/|^packages/dashboard/dist/|\.d\.ts$'
}
count() { while read -r f; do git show "$rev:$f"; done | wc -l; }
echo "non-test source lines at $rev: $(sources | count)"
echo "packages/server/src at $rev: $(sources | grep '^packages/server/src/' | count) lines"
