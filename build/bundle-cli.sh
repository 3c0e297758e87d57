#!/usr/bin/env bash
# Finishes dist/ after tsc, in two steps.
#
# 1. Bundles the compiled CLI (dist/src/cli/bin.js) into dist/bin/: plantstore.js, the package's `bin`,
#    and chunks/. A start reads a few files instead of some 300 modules; each dynamic import() of the
#    CLI (a command's run, the runner, the reports, the servers) is a chunk of its own, so a command
#    loads only what it uses. The library entry (dist/src/index.js) is not bundled.
#    --external: Prism (@stoplight/*) is loaded by `mock` alone, from node_modules at run time. yaml and
#      undici are not bundled either: src/contract/document-reader.ts and src/runner/http/undici.ts load
#      them through createRequire, which Node resolves from dist/bin/chunks/ up to node_modules.
#    --banner: bundled CommonJS (ajv, swagger-parser) calls require() for Node's own modules; an ES
#      module has no require, so every chunk gets one.
#    --keep-names: bundling renames clashing functions and classes; keep the names they report.
# 2. Writes dist/contract/openapi.json: the bundled openapi.yaml read and dereferenced once, here, so
#    that loading it skips yaml and swagger-parser (src/contract/prebuilt-document.ts; a document
#    edited since the build is read as before).
# 3. Writes dist/contract/validators.js: ajv's code for the schemas the bundled document compiles, so
#    that loading it neither loads ajv nor compiles a schema (src/contract/prebuilt-validators.ts; a
#    schema not among them, or ajv installed at another version, is compiled as before).
set -euo pipefail
cd "$(dirname "$0")/.."
out=dist/bin
rm -rf "$out"
node_modules/.bin/esbuild plantstore=dist/src/cli/bin.js \
  --bundle --splitting --format=esm --platform=node --target=node22.12 \
  --outdir="$out" --chunk-names='chunks/[name]-[hash]' \
  --external:'@stoplight/*' --keep-names \
  --banner:js="import { createRequire as __plantstoreRequire } from 'node:module'; const require = __plantstoreRequire(import.meta.url);" \
  --log-level=warning
chmod 755 "$out/plantstore.js"

node --input-type=module -e "await (await import('./dist/src/contract/prebuilt-document.js')).writePrebuiltDocument();"
node --input-type=module -e "await (await import('./dist/src/contract/prebuilt-validators-build.js')).writePrebuiltValidators();"
