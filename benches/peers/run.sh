#!/usr/bin/env bash
# Peer comparison, run by hand (not in CI): the same corpus of tool calls
# validated by toolargs (`from_model`) and by pydantic v2
# (`TypeAdapter(...).validate_json`), timed one after the other in one run.
# Needs pydantic: `python3 -m pip install 'pydantic>=2'`.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus="${CARGO_TARGET_DIR:-target}/peers-corpus.jsonl"
out=$(cargo bench -q --bench peers -- "$corpus")
echo "$out"
peer=$(python3 benches/peers/pydantic_peer.py "$corpus")
echo "$peer"
ours=$(echo "$out" | sed -n 's/^toolargs from_model .* \([0-9]*\) ns\/call$/\1/p')
theirs=$(echo "$peer" | sed -n 's/^pydantic .* \([0-9]*\) ns\/call$/\1/p')
python3 -c "print(f'pydantic / toolargs: {$theirs / $ours:.2f}x')"
python3 -c "import platform, pydantic; print('machine:', platform.machine(), platform.processor() or '', '| python', platform.python_version(), '| pydantic', pydantic.VERSION)"
