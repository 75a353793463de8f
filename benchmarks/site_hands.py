"""Parse-benchmark inputs for every text site: the site's hands in sample_histories/ and the corpus
(``../shared/corpus``, when present) repeated until there are ``hands`` hands, as hhtool reads them.

The copies keep their hand numbers: the parse step does not look for duplicates (the import does, after
it), so this measures the parse alone. Few distinct hands repeated make most lines repeat, which favours
any reading remembered per line; the simulated files (``hhtool simulate``) are the other extreme.

    python benchmarks/site_hands.py [--hands 2000]     # writes bench_data/site-<name>-<hands>.txt
"""

from __future__ import annotations

import argparse
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FOLDERS = (REPO / "sample_histories", REPO.parent / "shared" / "corpus")


def site_hands(site: str) -> list[tuple[str, ...]]:
    """The lines of every hand of ``site`` in the samples and the corpus that hhtool parses into a Hand."""
    from hhtool.ingest.reader import read_file
    from hhtool.model import Hand
    from hhtool.sites import detect

    found: list[tuple[str, ...]] = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
            if not path.is_file() or path.suffix.lower() in (".xml", ".json", ".phhs", ".md"):
                continue
            lines = read_file(path).lines
            parser = detect(lines)
            if parser is None or parser.name != site:
                continue
            found += [raw.lines for raw in parser.split(lines, str(path)) if isinstance(parser.parse(raw), Hand)]
    return found


def replicated_site(site: str, hands: int, folder: Path) -> Path | None:
    """A file of ``hands`` hands of ``site`` (its real and sample hands over and over), made once; None
    when the site has no hand to copy."""
    path = folder / f"site-{site}-{hands}.txt"
    if path.exists():
        return path
    originals = site_hands(site)
    if not originals:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for index in range(hands):
            out.write("\n".join(originals[index % len(originals)]) + "\n\n\n")
    return path


def main() -> None:
    from hhtool.sites import all_parsers

    cli = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_argument("--hands", type=int, default=2_000)
    args = cli.parse_args()
    for parser in all_parsers():
        if parser.line_formats():
            print(parser.name, replicated_site(parser.name, args.hands, REPO / "bench_data"))


if __name__ == "__main__":
    main()
