#!/usr/bin/env bash
# Builds and runs one fuzz target on stable Rust (see README.md).
# Usage: fuzz/run.sh TARGET [SECONDS]   (from anywhere; default 300 seconds)
# The checked-in seeds (seeds/TARGET) are read; what libFuzzer finds goes to
# corpus/TARGET (ignored by git), crashes to artifacts/TARGET.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?usage: run.sh TARGET [SECONDS]}
seconds=${2:-300}
mkdir -p "corpus/$target"
dict=()
case "$target" in
  call_parsing | from_model) dict=(-dict=dicts/json.dict) ;;
esac
RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "corpus/$target" "seeds/$target" -- \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 "${dict[@]}"
