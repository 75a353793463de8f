"""Whether two checkouts parse every history alike: each hand of sample_histories/ and ../shared/corpus
(and any more files or folders given) is read, detected, split and parsed by each checkout's own code, in
a process of its own, and the outcomes' reprs (the whole model: seats, deals, actions, awards, notes,
stakes; a failure's reason and line) are compared hand by hand.

    python benchmarks/compare_parse.py OTHER_CHECKOUT [more files or folders]

(OTHER_CHECKOUT: e.g. the branch's base, ``git archive BASE | tar -x -C /tmp/base``.)

Prints how many hands were compared and every hand whose outcome differs (the first few in full);
exits 1 when one does. Run it with the interpreter of a venv that has the dependencies: each checkout is
put first on PYTHONPATH for its own run.
"""

from __future__ import annotations

import difflib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHOWN = 3  # differing hands printed in full


def default_inputs() -> list[Path]:
    return [REPO / "sample_histories", REPO.parent / "shared" / "corpus"]


def history_files(inputs: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in inputs:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() != ".md")
        elif path.is_file():
            files.append(path)
    return files


def dump(inputs: list[Path], out: Path) -> None:
    """(Run inside the checkout compared.) Every hand's outcome repr, by "file #index", as JSON in ``out``."""
    try:
        from hhtool.ingest.reader import read_file
    except ImportError:  # a checkout from before the import moved into hhtool/ingest/
        from hhtool.reader import read_file  # type: ignore[no-redef]
    from hhtool.sites import detect

    outcomes: dict[str, str] = {}
    for path in history_files(inputs):
        lines = read_file(path).lines
        parser = detect(lines)
        if parser is None:
            outcomes[f"{path} #-"] = "no site"
            continue
        for index, raw in enumerate(parser.split(lines, str(path))):
            try:
                outcomes[f"{path} #{index}"] = repr(parser.parse(raw))
            except Exception as error:  # a crash is an outcome to compare too
                outcomes[f"{path} #{index}"] = f"crash: {type(error).__name__}: {error}"
    out.write_text(json.dumps(outcomes), encoding="utf-8")


def run_in(checkout: Path, inputs: list[Path], out: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import compare_parse as c; "
            "c.dump([Path(p) for p in sys.argv[3:]], Path(sys.argv[2]))")
    subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), str(out), *map(str, inputs)],
                   env=env, check=True, cwd=tempfile.gettempdir())
    result: dict[str, str] = json.loads(out.read_text(encoding="utf-8"))
    return result


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    other = Path(argv[0]).resolve()
    inputs = default_inputs() + [Path(arg).resolve() for arg in argv[1:]]
    with tempfile.TemporaryDirectory() as folder:
        theirs = run_in(other, inputs, Path(folder) / "theirs.json")
        ours = run_in(REPO, inputs, Path(folder) / "ours.json")
    differing = sorted(key for key in theirs.keys() | ours.keys() if theirs.get(key) != ours.get(key))
    for key in differing[:SHOWN]:
        print(f"--- {key}")
        diff = difflib.unified_diff(str(theirs.get(key)).split(", "), str(ours.get(key)).split(", "), lineterm="", n=1)
        print("\n".join(list(diff)[2:40]))
    for key in differing[SHOWN:]:
        print(f"--- {key}")
    print(f"{len(theirs)} hands compared ({other} → {REPO}): {len(differing)} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
