#!/usr/bin/env bash
# Node 22 is the Node line inside Electron 45; the unit tests also run on it (scripts/test-all.sh). This installs it
# locally from the npm registry (the `node` package, which fetches `node-<os>-<arch>` with the binary and the headers)
# and builds a second SQLite binding for its ABI, since better-sqlite3-multiple-ciphers 12.x is not N-API (keytar is,
# and loads on both lines as it is). Everything lands in node_modules/.paydesk-node22, so a fresh install starts over;
# a stamp makes a second run do nothing. Prints the folder's path on stdout when done.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE22_VERSION=22.23.3
home="$PWD/node_modules/.paydesk-node22"
node22="$home/node_modules/node/bin/node"
sqlite_pkg=node_modules/better-sqlite3-multiple-ciphers
sqlite_version=$(node -p "require('./$sqlite_pkg/package.json').version")
stamp="$home/.stamp"
want="node $NODE22_VERSION, better-sqlite3-multiple-ciphers $sqlite_version"

if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && [ -x "$node22" ] && [ -f "$home/better_sqlite3.node" ]; then
  echo "$home"
  exit 0
fi

if [ ! -x "$node22" ] || [ "$("$node22" -v 2>/dev/null)" != "v$NODE22_VERSION" ]; then
  echo "setup: installing Node $NODE22_VERSION locally (npm package node@$NODE22_VERSION)" >&2
  rm -rf "$home" && mkdir -p "$home"
  # Its own prefix with its own package.json: the project's lockfile and node_modules/.bin stay as they are (a `node`
  # in node_modules/.bin would make every npm script run on Node 22).
  echo '{"private":true}' >"$home/package.json"
  npm install --prefix "$home" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node@$NODE22_VERSION" >&2
  [ "$("$node22" -v)" = "v$NODE22_VERSION" ] || {
    echo "setup: Node $NODE22_VERSION did not install (expected $node22)" >&2
    exit 1
  }
fi

# The headers ship in the platform package (node-<os>-<arch>) beside the binary: node-gyp needs no download with
# --nodedir. (bin/node is a hard link to that package's binary, so the path is found by name, not by the link.)
nodedir=$(dirname "$(dirname "$(dirname "$(ls "$home"/node_modules/node/node_modules/node-*/include/node/node.h 2>/dev/null | head -1)")")")
[ -f "$nodedir/include/node/node.h" ] || {
  echo "setup: no Node headers under $nodedir/include/node" >&2
  exit 1
}
gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
echo "setup: building the SQLite binding for Node $NODE22_VERSION (ABI $("$node22" -p process.versions.modules))" >&2
build="$home/sqlite-build"
rm -rf "$build" && mkdir -p "$build"
cp -R "$sqlite_pkg/binding.gyp" "$sqlite_pkg/src" "$sqlite_pkg/deps" "$sqlite_pkg/package.json" "$build/"
[ -f "$gyp" ] || {
  echo "setup: npm's node-gyp not found at $gyp" >&2
  exit 1
}
# node-gyp lets npm_config_* variables (set when this runs under `npm test`, e.g. a user's nodedir) override its
# arguments: pin the headers through the variable too, and drop any other target.
if ! (cd "$build" && env -u npm_config_target -u npm_config_runtime -u npm_config_disturl -u npm_config_dist_url \
  npm_config_nodedir="$nodedir" "$node22" "$gyp" rebuild --release --nodedir="$nodedir" --jobs=2 \
  >"$home/sqlite-build.log" 2>&1); then
  tail -40 "$home/sqlite-build.log" >&2
  echo "setup: the SQLite binding for Node $NODE22_VERSION did not build (log: $home/sqlite-build.log)" >&2
  exit 1
fi
cp "$build/build/Release/better_sqlite3.node" "$home/better_sqlite3.node"
rm -rf "$build"
# Proof it is for Node 22's ABI: Node 22 opens a database with it.
PAYDESK_BINDING="$home/better_sqlite3.node" "$node22" -e "
  const Database = require('./$sqlite_pkg')
  new Database(':memory:', { nativeBinding: process.env.PAYDESK_BINDING }).prepare('select 1').get()" >&2
echo "$want" >"$stamp"
echo "$home"
