#!/usr/bin/env bash
# Every test of the project, on a fresh Debian 12 machine (run as root or with sudo):
# installs what it needs, builds each package the way a user would, runs each suite.
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh core node  # some areas (core python node java rust frameworks fleet sql)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(core python node java rust frameworks fleet sql)
for area in "${areas[@]}"; do
  script="$here/test/$area.sh"
  if [ ! -f "$script" ]; then
    echo "no test script for '$area' ($script)" >&2
    exit 2
  fi
  printf '\n######## %s ########\n' "$area"
  bash "$script"
done
printf '\nall test areas passed: %s\n' "${areas[*]}"
