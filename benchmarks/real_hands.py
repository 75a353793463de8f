"""Real hands for the benchmarks: the corpus's PokerStars Seven Card Stud Hi/Lo hands, replicated.

The corpus (``../shared/corpus``, see its SOURCES.md) holds a few dozen real PokerStars Stud Hi/Lo
hands. :func:`replicated` writes them, decoded as hhtool reads them (their UTF-8 BOM and CRLF line
ends are the reader's to handle, and hhtool's reader is tested on them elsewhere), over and over
with each copy's hand number replaced by a new one, until there are ``hands`` hands: real text,
each copy a distinct hand to the importer. Only hands hhtool parses as Stud Hi/Lo are copied.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "PokerStars"
#: the hand number in a PokerStars header line (``PokerStars Game #35874487284:``, ``Hand #…``)
_HAND_NUMBER = re.compile(r"^(PokerStars (?:Home Game )?(?:Game|Hand) #)(\d+)")


def corpus_hands() -> list[list[str]]:
    """The lines of each real PokerStars Stud Hi/Lo hand of the corpus that hhtool parses."""
    from hhtool.ingest.reader import read_file
    from hhtool.model import Hand
    from hhtool.sites import parser_for

    parser = parser_for("pokerstars")
    hands: list[list[str]] = []
    for path in sorted(CORPUS.glob("*.txt")):
        for raw in parser.split(read_file(path).lines, str(path)):
            hand = parser.parse(raw)
            if isinstance(hand, Hand) and "hi/lo" in raw.lines[0].lower() and _HAND_NUMBER.match(raw.lines[0]):
                hands.append(list(raw.lines))
    return hands


def replicated(hands: int, folder: Path) -> Path:
    """A file of ``hands`` real hands (the corpus's, copied with new hand numbers), made once."""
    path = folder / f"real-pokerstars-{hands}.txt"
    if path.exists():
        return path
    originals = corpus_hands()
    if not originals:
        raise SystemExit(f"no PokerStars Stud Hi/Lo hand found in {CORPUS}")
    folder.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for index in range(hands):
            lines = list(originals[index % len(originals)])
            lines[0] = _HAND_NUMBER.sub(rf"\g<1>{900_000_000_000 + index}", lines[0], count=1)
            out.write("\n".join(lines) + "\n\n\n")
    return path


if __name__ == "__main__":
    found = corpus_hands()
    print(f"{len(found)} real PokerStars Stud Hi/Lo hands in {CORPUS}")
    print(replicated(10_000, REPO / "bench_data"))
