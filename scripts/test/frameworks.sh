#!/usr/bin/env bash
# The framework integrations, each against a real PostgreSQL 15 started here (and SQLite
# where the framework supports it): Python's snowfleet.sqlalchemy (+ Alembic), .django (+
# admin, migrations) and .pydantic (+ FastAPI); Node's snowfleet/json, /pg, /drizzle,
# /typeorm (+ Knex, Kysely); Java's Hibernate, Jackson and Spring Boot modules (a Spring Boot
# app on PostgreSQL); and every block of docs/web-services.md, run.
#
#   bash scripts/test/frameworks.sh
#
# Builds nothing twice: the Python package is taken from test/python.sh's venv (out/py-venv)
# when its native module is newer than the sources, the Node addon from the checkout's
# build/ (test/node.sh leaves it), the core jar from java/target; otherwise each is built
# here. Installs: a venv (out/frameworks/venv, pinned in tests/frameworks/python/
# requirements.txt), an npm project (out/frameworks/node, tests/frameworks/node/package.json),
# Spring Boot and friends into the Maven repository (~/.m2).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ROOT=$(repo_root)
cd "$ROOT"
OUT=$ROOT/out/frameworks
VERSION=$(head -1 VERSION)
started=$SECONDS
mkdir -p "$OUT"

section "frameworks: toolchains"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
apt_install postgresql-15 python3-venv python3-dev g++ make cmake swig openjdk-17-jdk-headless maven
command -v node >/dev/null || apt_install nodejs
command -v npm >/dev/null || apt_install npm
export PATH="$JAVA_HOME/bin:$PATH"
if [ -z "${npm_config_nodedir:-}" ]; then  # node-gyp cannot download headers here
  prefix=$(node -p 'path.dirname(path.dirname(process.execPath))')
  [ -f "$prefix/include/node/node_api.h" ] || { apt_install libnode-dev; prefix=/usr; }
  export npm_config_nodedir="$prefix"
fi
export npm_config_audit=false npm_config_fund=false npm_config_loglevel=error

# newer_than FILE DIR...: FILE exists and no file under DIR... is newer.
newer_than() {
  local f=$1; shift
  [ -e "$f" ] && [ -z "$(find "$@" -type f -newer "$f" -print -quit 2>/dev/null)" ]
}

section "frameworks: Python (venv, snowfleet, $(wc -l <tests/frameworks/python/requirements.txt) pinned packages)"
VENV=$OUT/venv
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
PY=$VENV/bin/python
SITE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
NATIVE_SOURCES=(core bindings/python CMakeLists.txt cmake VERSION pyproject.toml)
theirs=$ROOT/out/py-venv
their_site=$([ -x "$theirs/bin/python" ] && "$theirs/bin/python" -c \
  'import sysconfig; print(sysconfig.get_paths()["purelib"])' || true)
their_so=$(ls "$their_site"/snowfleet/_snowfleet.cpython-*.so 2>/dev/null | head -1 || true)
ours_so=$(ls "$SITE"/snowfleet/_snowfleet.cpython-*.so 2>/dev/null | head -1 || true)
if [ -n "$ours_so" ] && newer_than "$ours_so" "${NATIVE_SOURCES[@]}"; then
  echo "snowfleet: the venv's build is current"
elif [ -n "$their_so" ] && [ "$("$theirs/bin/python" -V)" = "$("$PY" -V)" ] &&
     newer_than "$their_so" "${NATIVE_SOURCES[@]}"; then
  echo "snowfleet: taken from test/python.sh's install ($their_site/snowfleet)"
  rm -rf "$SITE/snowfleet" && cp -r "$their_site/snowfleet" "$SITE/"
else
  echo "snowfleet: pip install . (build directory $OUT/py-build)"
  "$PY" -m pip install -q --disable-pip-version-check -Cbuild-dir="$OUT/py-build" "$ROOT"
fi
# The pure-Python layer is always this checkout's (the integrations are plain modules).
cp python/snowfleet/*.py python/snowfleet/*.pyi "$SITE/snowfleet/"
"$PY" -m pip install -q --disable-pip-version-check -r tests/frameworks/python/requirements.txt
"$PY" -c 'import snowfleet, sqlalchemy, django, pydantic, fastapi; print("snowfleet", snowfleet.__version__,
  "| SQLAlchemy", sqlalchemy.__version__, "| Django", django.__version__, "| Pydantic",
  pydantic.VERSION, "| FastAPI", fastapi.__version__)'

section "frameworks: Node (addon, test project)"
if [ ! -d node_modules ]; then
  npm ci  # also builds the addon
elif ! newer_than build/Release/snowfleet.node core bindings/node binding.gyp VERSION; then
  npm run compile >/dev/null
else
  echo "addon: build/Release/snowfleet.node is current"
fi
mkdir -p "$OUT/node"
cp tests/frameworks/node/package.json tests/frameworks/node/usage.ts tests/frameworks/node/tsconfig*.json "$OUT/node/"
(cd "$OUT/node" && npm install --no-package-lock)
NODE_MODULES=$OUT/node/node_modules
echo "node $(node --version); the test project links this checkout as 'snowfleet'"

section "frameworks: Java (core jar in the local Maven repository)"
JAR=java/target/snowfleet-$VERSION.jar
if newer_than "$JAR" java/src/main core bindings/java java/pom.xml VERSION; then
  echo "core jar: $JAR is current"
else
  mvn -B -ntp -q -f java/pom.xml package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
fi
mvn -B -ntp -q install:install-file -Dfile="$JAR" -DgroupId=dev.snowfleet -DartifactId=snowfleet \
  -Dversion="$VERSION" -Dpackaging=jar

section "frameworks: PostgreSQL 15"
pgdir=$(mktemp -d /tmp/snowfleet-frameworks.XXXXXX)
cleanup() { pg_private_stop; rm -rf "$pgdir"; }
trap cleanup EXIT
pg_private_start "$pgdir"
echo "PostgreSQL on 127.0.0.1:$SNOWFLEET_PG_PORT"

section "frameworks: docs/web-services.md blocks"
python3 tests/frameworks/snippets.py docs/web-services.md "$OUT/snippets"

section "frameworks: Python (SQLAlchemy + Alembic, Django, Pydantic + FastAPI, web services)"
(cd tests/frameworks/python && PATH="$VENV/bin:$PATH" "$PY" -m pytest -q -p no:cacheprovider \
  -W ignore::DeprecationWarning .)

section "frameworks: Node (JSON, pg, Drizzle, Knex, Kysely, TypeORM, web services)"
for config in tsconfig.json tsconfig.node10.json tsconfig.bundler.json; do  # node16, node10, bundler
  (cd "$OUT/node" && "$ROOT/node_modules/.bin/tsc" -p "$config" && echo "tsc --strict -p $config: usage.ts ok")
done
NODE_PATH=$NODE_MODULES node --test tests/frameworks/node/*.test.js

section "frameworks: Java (Hibernate, Jackson, Spring Boot app on PostgreSQL)"
mvn -B -ntp -f java/integrations/pom.xml install \
  -Dsnowfleet.pg.url="jdbc:postgresql://127.0.0.1:$SNOWFLEET_PG_PORT/postgres" >"$OUT/mvn.log" 2>&1 ||
  { cat "$OUT/mvn.log"; exit 1; }
grep -E 'Tests run:|BUILD' "$OUT/mvn.log"

echo "frameworks: all passed in $((SECONDS - started)) s"
