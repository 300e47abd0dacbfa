#!/usr/bin/env bash
# Installs Claude Code, Codex CLI and Gemini CLI into .agents/ (gitignored) for the coding-agent tests
# (packages/server/test/agents/, docs/testing.md). Not part of package.json or the lockfile: CI does not install them,
# and the tests skip visibly without them. AGENTS_DIR picks another folder; extra arguments replace the package list
# (e.g. `scripts/install-agents.sh @openai/codex@0.171.0`).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${AGENTS_DIR:-.agents}"
mkdir -p "$dir"
[ -f "$dir/package.json" ] || printf '{ "private": true }\n' > "$dir/package.json"
if [ "$#" -eq 0 ]; then set -- @anthropic-ai/claude-code@latest @openai/codex@latest @google/gemini-cli@latest; fi
npm install --prefix "$dir" --no-audit --no-fund "$@"
for cli in claude codex gemini; do
  if [ -x "$dir/node_modules/.bin/$cli" ]; then
    printf '%s: %s\n' "$cli" "$("$dir/node_modules/.bin/$cli" --version 2>&1 | head -n 1)"
  else
    printf '%s: not installed\n' "$cli"
  fi
done
