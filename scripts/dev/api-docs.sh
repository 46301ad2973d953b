#!/usr/bin/env bash
# API reference from the doc comments, warnings as errors, into out/api/{python,node,java}:
#   Python  pdoc on the installed package (out/py-venv; scripts/test/python.sh --install-only)
#   Node    TypeDoc on node/index.d.ts (pinned, installed into out/api-tools)
#   Java    javadoc of the public packages (mvn javadoc:javadoc; needs a prior `mvn package`
#           for the SWIG sources: scripts/test/java.sh --install-only then mvn package)
#   bash scripts/dev/api-docs.sh [python] [node] [java]     # default: all three
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
ROOT=$PWD
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(python node java)
mkdir -p out/api

for area in "${areas[@]}"; do
  case $area in
    python)
      section "api docs: python (pdoc)"
      PY="${SNOWFLEET_PY_VENV:-$ROOT/out/py-venv}/bin/python"
      [ -x "$PY" ] || bash scripts/test/python.sh --install-only >/dev/null
      "$PY" -m pip install -q --disable-pip-version-check "pdoc==15.*"
      # Every warning is an error, but one: on Python < 3.12 pdoc cannot evaluate the
      # annotation array.array[int] (typeshed's generic; subscriptable at run time from 3.12).
      (cd / && "$PY" -W error -W "ignore:Error parsing type annotation 'array.array[int]'" \
        -m pdoc snowfleet -o "$ROOT/out/api/python")
      ;;
    node)
      section "api docs: node (TypeDoc)"
      tools=out/api-tools
      if [ ! -x "$tools/node_modules/.bin/typedoc" ]; then
        mkdir -p "$tools"
        (cd "$tools" && npm init -y >/dev/null &&
          npm install -q --no-audit --no-fund typedoc@0.28 typescript@5.9 >/dev/null)
      fi
      cat >"$tools/tsconfig.json" <<JSON
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2020", "lib": ["ES2020"],
    "module": "nodenext", "moduleResolution": "nodenext", "types": [] },
  "files": ["$ROOT/node/index.d.ts"] }
JSON
      "$tools/node_modules/.bin/typedoc" --tsconfig "$tools/tsconfig.json" \
        --treatWarningsAsErrors --name snowfleet --readme node/README.md \
        --out out/api/node node/index.d.ts
      ;;
    java)
      section "api docs: java (javadoc)"
      export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
      [ -d java/target/generated-sources/swig ] ||
        { echo "run mvn -f java/pom.xml package first (the SWIG sources)" >&2; exit 1; }
      mvn -B -ntp -q -f java/pom.xml javadoc:javadoc -Dsnowfleet.skipNative=true \
        -Dmaven.javadoc.failOnWarnings=true
      rm -rf out/api/java && cp -r java/target/reports/apidocs out/api/java
      ;;
    *) echo "unknown area '$area' (python, node, java)" >&2; exit 2 ;;
  esac
  echo "api docs: $area -> out/api/$area"
done
