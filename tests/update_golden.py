"""The golden files of the tests, and the one way to write them again: by hand, after a deliberate
change of the output, with ``python -m tests.update_golden``; review the diff before committing it.
A test run only reads them (a test that rewrote its golden file could never fail)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.dispute_helpers import FILE_MARK, GOLDEN, explain, imported, masked_json, side_pot_hand


def _dispute(report_format: str) -> Callable[[Path], str]:
    """The dispute report of the split pot with a side pot (hand #200) in ``report_format``, with the
    history's path replaced by FILE_MARK, as the golden tests compare it."""

    def make(folder: Path) -> str:
        db, path = imported(folder, side_pot_hand())
        if report_format == "json":
            return json.dumps(masked_json(explain(db, "200", "--format", "json"), path), indent=2) + "\n"
        if report_format == "html":
            out = folder / "r.html"
            explain(db, "200", "--format", "html", "--out", str(out))
            return out.read_text().replace(str(path), FILE_MARK)
        return explain(db, "200").replace(str(path), FILE_MARK)

    return make


#: golden file name -> the output it holds, made in a fresh folder
OUTPUTS: dict[str, Callable[[Path], str]] = {
    f"dispute_split_side_pot.{suffix}": _dispute(report_format)
    for suffix, report_format in (("txt", "text"), ("json", "json"), ("html", "html"))
}


def main() -> None:
    for name, make in OUTPUTS.items():
        with tempfile.TemporaryDirectory() as folder:
            (GOLDEN / name).write_text(make(Path(folder)))
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    main()
