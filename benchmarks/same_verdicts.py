"""Check that two trees of hhtool store the same judgements: every table, verdicts and findings included.

    git archive main | tar -x -C /tmp/base   # the code to compare with, outside any worktree
    python benchmarks/same_verdicts.py --base /tmp/base [--other .] [--hands 1000] [--keep DIR] [--expect TEXT]

Each tree (``--base`` and ``--other``, default this one) imports, in its own new store, the same
inputs one import at a time (so that each later import's cross-hand pass meets the hands already
stored): ``sample_histories/``, ``../shared/corpus`` and ``hhtool simulate`` hands (``--hands``
plain ones, and as many again with a fifth of them breaking one rule each); then ``audit --rules
default`` re-judges every hand under another profile (the pass's profile path). The two stores must
then hold the same rows in every table (import times aside), and the read commands that show
verdicts (`audit`, `hands --verdict …`, `violations`) must print the same. Exit 0 when they agree,
1 with the differences listed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parents[1]

#: columns that hold when or how long an import ran, not what it found
VOLATILE = {"imported_at", "started", "finished", "seconds", "updated_at", "created_at", "at", "written_at", "applied_at"}

#: the read commands whose output shows verdicts and findings (each run with `--db STORE` after it)
READS: tuple[tuple[str, ...], ...] = (
    ("audit", "--format", "jsonl"),
    ("audit", "--format", "jsonl", "--rules", "default"),
    ("hands", "--format", "csv", "--limit", "0", "--all"),
    *(("hands", "--format", "csv", "--limit", "0", "--verdict", verdict)
      for verdict in ("ok", "violation", "unverifiable", "not-replayed")),
    ("violations", "--format", "csv", "--by", "code"),
    ("violations", "--format", "csv", "--by", "hand"),
)


def hhtool(tree: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``python -m hhtool ARGS`` with the code of ``tree`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "200", "HHTOOL_PROGRESS": "off", "NO_COLOR": "1"}
    env.pop("HHTOOL_DB", None)
    done = subprocess.run([sys.executable, "-m", "hhtool", *args], env=env, cwd=tree, text=True,
                          capture_output=True, check=False)
    if check and done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: hhtool {' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return done


def inputs(folder: Path, hands: int) -> list[Path]:
    """The inputs, each imported on its own: the samples, the corpus, plain and faulty simulated hands."""
    plain, faulty = folder / "sim.txt", folder / "faulty.txt"
    hhtool(HERE, "simulate", "--hands", str(hands), "--seed", "1", "--force", "--out", str(plain))
    hhtool(HERE, "simulate", "--hands", str(hands), "--seed", "2", "--faults", "0.2", "--force", "--out", str(faulty))
    return [HERE / "sample_histories", (HERE / ".." / "shared" / "corpus").resolve(), plain, faulty]


def build(tree: Path, store: Path, paths: list[Path]) -> dict[tuple[str, ...], str]:
    """Import ``paths`` into ``store`` one at a time with ``tree``'s code, re-judge under another
    profile, and return the read commands' outputs."""
    for path in paths:
        hhtool(tree, "import", "-q", str(path), "--db", str(store))
    hhtool(tree, "audit", "-q", "--rules", "default", "--db", str(store))
    return {read: hhtool(tree, *read, "--db", str(store)).stdout for read in READS}


def table_differences(base: Path, other: Path) -> list[str]:
    """The tables whose rows differ between the two stores (import times aside), with a sample row."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{base}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{other}' AS b (READ_ONLY)")
    listed = """SELECT table_schema, table_name FROM information_schema.tables
                WHERE table_catalog = ? AND table_type = 'BASE TABLE' ORDER BY ALL"""
    tables_a = {tuple(row) for row in con.execute(listed, ["a"]).fetchall()}
    tables_b = {tuple(row) for row in con.execute(listed, ["b"]).fetchall()}
    found = [f"table {'.'.join(t)} only in the base" for t in sorted(tables_a - tables_b)]
    found += [f"table {'.'.join(t)} only in the other" for t in sorted(tables_b - tables_a)]
    for schema, name in sorted(tables_a & tables_b):
        columns = [row[0] for row in con.execute(
            """SELECT column_name FROM information_schema.columns WHERE table_catalog = 'a' AND table_schema = ?
               AND table_name = ? ORDER BY ordinal_position""", [schema, name]).fetchall()]
        kept = ", ".join(f'"{column}"' for column in columns if column not in VOLATILE)
        for first, second in (("a", "b"), ("b", "a")):
            rows = con.execute(f"""SELECT count(*), any_value(x::VARCHAR) FROM (
                SELECT {kept} FROM {first}.{schema}.{name} EXCEPT ALL SELECT {kept} FROM {second}.{schema}.{name}) x"""
                               ).fetchone()
            if rows and rows[0]:
                which = "base" if first == "a" else "other"
                found.append(f"{schema}.{name}: {rows[0]} row(s) only in the {which}, e.g. {rows[1]}")
    counts = con.execute("SELECT (SELECT count(*) FROM a.main.hands), (SELECT count(*) FROM b.main.hands)").fetchone()
    print(f"hands stored: base {counts[0] if counts else '?'}, other {counts[1] if counts else '?'}; "
          f"{len(tables_a & tables_b)} tables compared")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the tree to compare with (e.g. main's checkout)")
    parser.add_argument("--other", type=Path, default=HERE, help="the tree under test (default: this one)")
    parser.add_argument("--hands", type=int, default=1000, help="simulated hands of each kind (plain, faulty)")
    parser.add_argument("--keep", type=Path, help="keep the stores in this folder")
    parser.add_argument("--expect", action="append", default=[], metavar="TEXT",
                        help="a difference the change intends (its line starts with TEXT): listed, not counted "
                             "(e.g. a table the other tree adds, and its schema_version row)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        paths = inputs(folder, args.hands)
        stores = folder / "base.duckdb", folder / "other.duckdb"
        for store in stores:
            store.unlink(missing_ok=True)
        outputs = [build(tree.resolve(), store, paths) for tree, store in zip((args.base, args.other), stores, strict=True)]
        found = table_differences(*stores)
        for read in READS:
            if outputs[0][read] != outputs[1][read]:
                found.append(f"`hhtool {' '.join(read)}` prints otherwise")
            else:
                print(f"same output ({len(outputs[0][read].splitlines())} lines): hhtool {' '.join(read)}")
    expected = [difference for difference in found if any(difference.startswith(text) for text in args.expect)]
    found = [difference for difference in found if difference not in expected]
    for difference in expected:
        print(f"expected: {difference}")
    for difference in found:
        print(difference)
    print("the same judgements" if not found else f"{len(found)} difference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
