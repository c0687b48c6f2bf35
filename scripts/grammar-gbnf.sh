#!/usr/bin/env bash
# Checks the GBNF grammars with a real engine: llguidance's own GBNF import
# (from its Python package) converts each generated GBNF grammar, and the
# converted grammar must give the same verdict as the Lark grammar on every
# call of the generated corpus (tests/grammar_engine.rs, ignored test).
#
# Usage: scripts/grammar-gbnf.sh
# Needs python3 with venv, and the package registry for `pip install`.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
venv="$target/llguidance-python"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# The same llguidance release as the Rust dev-dependency.
version="$(cargo tree --quiet --edges normal,dev --prefix none --package llguidance \
    | awk '$1 == "llguidance" { sub(/^v/, "", $2); print $2; exit }')"
"$venv/bin/pip" install --quiet --disable-pip-version-check "llguidance==${version}"
TOOLARGS_LLGUIDANCE_PYTHON="$venv/bin/python" \
    cargo test --test grammar_engine gbnf_grammars_agree_with_lark_through_llguidance_gbnf_import \
    -- --ignored --nocapture
