"""Mutations of real-format histories, shared by the Hypothesis tests and benchmarks/fuzz_run.py."""

from __future__ import annotations

import itertools
import random

from hhtool.ingest.loader import import_file
from hhtool.store import Store
from tests.inputs import SAMPLES

ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252")


def sample_texts() -> list[tuple[str, str]]:
    """(name, text) of every bundled sample history."""
    found = []
    for path in sorted(SAMPLES.rglob("*")):
        if path.is_file():
            from hhtool.ingest.reader import read_file

            found.append((str(path.relative_to(SAMPLES)), "\n".join(read_file(path).lines)))
    return found


def mutate(text: str, rng: random.Random, count: int = 1) -> bytes:
    """Apply ``count`` random mutations, then encode in a random encoding."""
    lines = text.split("\n")
    for _ in range(count):
        kind = rng.randrange(9)
        index = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = [""]
        if kind == 0:  # truncate the file anywhere
            joined = "\n".join(lines)
            lines = joined[: rng.randrange(len(joined) + 1)].split("\n")
        elif kind == 1:
            del lines[index]
        elif kind == 2:
            lines.insert(index, lines[index])
        elif kind == 3:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == 4 and lines[index]:  # flip a character
            position = rng.randrange(len(lines[index]))
            line = lines[index]
            lines[index] = line[:position] + chr(rng.choice([0, 9, 36, 48, 57, 65, 0x20AC, 0xFFFD])) + line[position + 1:]
        elif kind == 5:  # inject binary junk
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).decode("latin-1")
            lines.insert(index, junk)
        elif kind == 6:  # a huge line
            lines.insert(index, "x" * rng.choice([1000, 100_000]))
        elif kind == 7:  # change a number
            line = lines[index]
            digits = [i for i, ch in enumerate(line) if ch.isdigit()]
            if digits:
                position = rng.choice(digits)
                lines[index] = line[:position] + str(rng.randrange(10)) + line[position + 1:]
        else:  # blank out a line
            lines[index] = ""
    encoding = rng.choice(ENCODINGS)
    return "\n".join(lines).encode(encoding, errors="replace")


_IMPORTS = itertools.count()


def import_and_check(store: Store, name: str, data: bytes) -> None:
    """Import mutated bytes; assert the accounting invariant against the report and the store."""
    # a path of its own: Hypothesis replays examples, and a re-run of one path does not store its errors twice
    name = f"{name}#{next(_IMPORTS)}"
    hands_before = store.run("SELECT count(*) FROM hands")[0][0]
    errors_before = store.run("SELECT count(*) FROM import_errors")[0][0]
    report = import_file(store, name, data, store_facts=False)
    assert report.balanced(), report
    assert store.run("SELECT count(*) FROM hands")[0][0] - hands_before == report.stored
    if report.status != "unchanged":
        assert store.run("SELECT count(*) FROM import_errors")[0][0] - errors_before == report.failed + report.incomplete
