#!/usr/bin/env bash
# Checks the GBNF grammars with llama.cpp's own grammar parser: builds
# llama.cpp's src/llama-grammar.cpp (from the sources the `llama-cpp-sys-2`
# crate ships, fetched with cargo) into a small harness, then runs the
# ignored test that feeds every call of the generated corpus through it and
# compares each verdict with llguidance's verdict on the Lark grammar.
#
# Usage: scripts/grammar-llama-cpp.sh
# Needs a C++17 compiler (g++) and the package registry for `cargo fetch`.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
work="$target/llama-gbnf"
# The llama-cpp-sys-2 release whose bundled llama.cpp is used.
version="0.1.161"
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<MANIFEST
[package]
name = "llama-gbnf-sources"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
llama-cpp-sys-2 = "=$version"

[workspace]
MANIFEST
touch "$work/fetch/src/lib.rs"
cargo fetch --quiet --manifest-path "$work/fetch/Cargo.toml"
crate="$(find "${CARGO_HOME:-$HOME/.cargo}/registry/cache" -name "llama-cpp-sys-2-$version.crate" | head -n 1)"
if [ -z "$crate" ]; then
    echo "llama-cpp-sys-2 $version was not fetched" >&2
    exit 1
fi
tar xzf "$crate" -C "$work"
src="$work/llama-cpp-sys-2-$version/llama.cpp"
g++ -std=c++17 -O1 \
    -I"$src/include" -I"$src/ggml/include" -I"$src/src" \
    scripts/llama-gbnf/harness.cpp scripts/llama-gbnf/stubs.cpp "$src/src/llama-grammar.cpp" \
    -o "$work/llama-gbnf"
TOOLARGS_LLAMA_GBNF="$work/llama-gbnf" \
    cargo test --test grammar_engine gbnf_grammars_agree_with_lark_in_llama_cpp -- --ignored --nocapture
