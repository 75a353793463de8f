"""Where the tests find their inputs, defined once: the repository's sample histories and the shared
corpus of real histories beside the repository (``../shared/corpus``, read-only: used by path, never
copied in); and ``edited``, the one way a test changes an input text."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TypeVar

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_histories"
CORPUS = REPO.parent / "shared" / "corpus"
CORPUS_MISSING = f"the shared corpus of real histories is missing: no folder {CORPUS} (../shared/corpus beside the repository)"


def require_corpus(*parts: str) -> Path:
    """``CORPUS / parts``; the calling test is skipped, saying what is missing, when the corpus is
    absent. A missing folder inside a present corpus is not skipped: the test then fails on it."""
    if not CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    return CORPUS.joinpath(*parts)


Text = TypeVar("Text", str, bytes)


def edited(text: Text, old: Text, new: Text, count: int = -1) -> Text:
    """``text`` with ``old`` replaced by ``new`` (the first ``count`` times; all when -1), asserting
    that ``old`` is there: an edit that changes nothing would leave the test judging its unchanged
    input, and it would pass for the wrong reason."""
    assert old in text, f"the edit changes nothing: {old!r} is not in the text"
    assert old != new, f"the edit changes nothing: {old!r} is replaced by itself"
    return text.replace(old, new, count)


def copy_store(source: Path, target: Path) -> Path:
    """A private copy of a closed DuckDB store (its write-ahead log too, when there is one)."""
    shutil.copyfile(source, target)
    wal = source.with_name(source.name + ".wal")
    if wal.exists():
        shutil.copyfile(wal, target.with_name(target.name + ".wal"))
    return target


def samples_store(folder: Path) -> str:
    """A store in ``folder`` holding the sample histories, imported by the command as a user would
    (one job, quiet); its path."""
    from typer.testing import CliRunner

    from hhtool.cli import app

    path = folder / "samples.duckdb"
    result = CliRunner().invoke(app, ["import", str(SAMPLES), "--db", str(path), "--jobs", "1", "-q"])
    assert result.exit_code == 0, result.output
    return str(path)
