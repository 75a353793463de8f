"""Same results before and after a change to the replay: dump every replay result of a set of
history files under every profile that applies, then compare two dumps.

Usage: python benchmarks/compare_replay.py dump OUT.json FILE_OR_FOLDER... [--profiles all|NAME,...]
       python benchmarks/compare_replay.py compare A.json B.json

Each hand is replayed under its site's profile (not explicitly chosen: unsettled readings make a
violation unverifiable) and under each named built-in profile as the user's explicit choice
(``--profiles all``: every built-in). A dump keeps, per (file, hand, profile), the findings in clear
(verdict; each violation's code, street, player, expected, actual, message, line; each unverifiable
check's code, reason, line) and a digest of the whole result's repr (pots, awards, showdown hands,
betting facts), and the same for the walk's state under the site's profile as the dispute report
reads it. ``compare`` prints the counts and every difference; its exit code is 1 when any differs.
Dump both sides with ``PYTHONHASHSEED=0``: the state holds sets (who went all-in), whose repr follows
the hash order, which otherwise changes from process to process (the findings do not depend on it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import warnings
from pathlib import Path

from hhtool.ingest.reader import read_file
from hhtool.model import Hand
from hhtool.replay import PROFILES, judged, profile_for
from hhtool.replay.profiles import ChosenProfile
from hhtool.replay.result import ReplayResult
from hhtool.sites import all_parsers


def hands_of(path: Path) -> list[Hand]:
    """Every hand of ``path`` that some site parser parses (a file no parser recognises: none)."""
    try:
        decoded = read_file(path)
    except (OSError, ValueError):
        return []
    head = [line for line in decoded.lines[:400] if line.strip()][:40]
    for parser in all_parsers():
        if parser.sniff(head):
            return [hand for raw in parser.split(decoded.lines, str(path))
                    if isinstance(hand := parser.parse(raw), Hand)]
    return []


def findings(result: ReplayResult) -> dict[str, object]:
    return {
        "verdict": str(result.verdict),
        "violations": [[str(v.code), v.street, v.player, v.expected, v.actual, v.message, v.line]
                       for v in result.violations],
        "unverifiable": [[str(u.check), u.reason, u.line] for u in result.unverifiable],
        "digest": hashlib.sha1(repr(result).encode()).hexdigest(),
    }


def dump(out: Path, paths: list[Path], profiles: list[str]) -> None:
    warnings.simplefilter("ignore")
    files = sorted(p for path in paths for p in ([path] if path.is_file() else path.rglob("*")) if p.is_file())
    table: dict[str, object] = {}
    for path in files:
        for number, hand in enumerate(hands_of(path)):
            key = f"{path}#{number}:{hand.hand_id}"
            entry: dict[str, object] = {}
            try:
                state, result = judged(hand, profile_for(hand, None))
                entry["site"] = findings(result)
                entry["state"] = hashlib.sha1(repr(state).encode()).hexdigest()
            except Exception as error:  # recorded: a crash must stay the same crash
                entry["site"] = f"error {type(error).__name__}: {error}"
            for name in profiles:
                try:
                    entry[name] = findings(judged(hand, ChosenProfile(PROFILES[name], True))[1])
                except Exception as error:
                    entry[name] = f"error {type(error).__name__}: {error}"
            table[key] = entry
    out.write_text(json.dumps(table, indent=0, sort_keys=True))
    verdicts: dict[str, int] = {}
    for entry in table.values():
        site = entry["site"]  # type: ignore[index]
        verdict = site["verdict"] if isinstance(site, dict) else "error"
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    print(f"{out}: {len(table)} hands from {len(files)} files, {1 + len(profiles)} profiles each; "
          f"site-profile verdicts {verdicts}")


def compare(a_path: Path, b_path: Path) -> int:
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    differences = 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print(f"only in {'B' if key not in a else 'A'}: {key}")
            differences += 1
            continue
        for name in sorted(set(a[key]) | set(b[key])):
            if a[key].get(name) != b[key].get(name):
                differences += 1
                if differences <= 20:
                    print(f"{key} [{name}]:\n  A {a[key].get(name)}\n  B {b[key].get(name)}")
    results = sum(len(entry) for entry in a.values())
    findings_count = sum(len(e["violations"]) + len(e["unverifiable"]) for entry in a.values()
                         for e in entry.values() if isinstance(e, dict))
    print(f"{len(a)} hands, {results} results ({findings_count} findings) compared: {differences} differences")
    return 1 if differences else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    dumping = sub.add_parser("dump")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("paths", type=Path, nargs="+")
    dumping.add_argument("--profiles", default="all", help="all, none or comma-separated built-in names")
    comparing = sub.add_parser("compare")
    comparing.add_argument("a", type=Path)
    comparing.add_argument("b", type=Path)
    options = parser.parse_args()
    if options.command == "dump":
        names = (sorted(PROFILES) if options.profiles == "all" else []
                 if options.profiles == "none" else options.profiles.split(","))
        dump(options.out, options.paths, names)
    else:
        sys.exit(compare(options.a, options.b))


if __name__ == "__main__":
    main()
