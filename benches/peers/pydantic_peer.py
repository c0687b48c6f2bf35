"""pydantic v2 side of the peer comparison: validates every line of a JSON
Lines corpus of tool-call arguments with `TypeAdapter(SearchArgs).validate_json`
and prints nanoseconds per call (median of several passes over the corpus).

The models mirror `SearchArgs` in benches/peers.rs: the same fields, closed
(`extra="forbid"`), strict types (no coercion, as toolargs does not coerce).
pydantic does not repair arguments, so only the clean half of the corpus is
comparable; damaged calls are counted as rejections.

    python3 benches/peers/pydantic_peer.py CORPUS.jsonl
"""

import statistics
import sys
import time
from typing import Optional

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Filter(Strict):
    since: str
    authors: list[str]


class Document(Strict):
    title: str
    body: str
    labels: list[str]


class SearchArgs(Strict):
    query: str
    tags: list[str]
    limit: Optional[int] = None
    filter: Optional[Filter] = None
    documents: list[Document]


def main():
    lines = [line.rstrip("\n") for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    adapter = TypeAdapter(SearchArgs)
    accepted = rejected = 0
    for line in lines:
        try:
            adapter.validate_json(line)
            accepted += 1
        except ValidationError:
            rejected += 1
    runs = []
    for _ in range(7):
        start = time.perf_counter_ns()
        for line in lines:
            try:
                adapter.validate_json(line)
            except ValidationError:
                pass
        runs.append((time.perf_counter_ns() - start) / len(lines))
    print(f"pydantic {accepted} accepted {rejected} rejected {statistics.median(runs):.0f} ns/call")


if __name__ == "__main__":
    main()
