"""Hostile player names (issue #13): every site's sample histories with their players renamed to
names holding ": ", brackets, "collected", " shows ", 500 characters, Unicode, names that are
prefixes of one another, read exactly like the originals (model equality modulo the renaming), and
imported by the CLI with nothing failed. A name resolves against the seated names, never as chat."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.reader import decode_bytes, read_file
from hhtool.model import FailedHand, Hand, Note
from hhtool.sites import detect
from tests.site_helpers import SAMPLES, parse_lines

HOSTILE_NAMES = [
    "Bob: calls $5",
    "q: folds",
    "q",
    "Bob",
    "[Ah Kd] (button)",
    "x collected $9 from pot",
    "Mr [ shows",
    "a shows [2c 3c] and wins",
    "Z" * 500,
    "Jösé 李 ♠: raises",
    "Seat 9: Hero",
    "Uncalled bet",
    "Al mucked [Ah Kd]",
    "z did not show and won $5",
]

#: sites whose players cannot choose their names (Bovada's tables are anonymous: "Seat+3")
ANONYMOUS_SITES = {"bovada"}

SAMPLE_FILES = sorted(path for path in SAMPLES.rglob("*") if path.is_file() and path.parent.name not in ANONYMOUS_SITES)


def _escape_for(path: Path) -> Callable[[str], str]:
    """How the site's file writes a name: XML attribute escaping, a TOML string, or as it is."""
    if path.suffix == ".xml":
        return lambda name: html.escape(name, quote=True)
    if path.suffix == ".phhs":
        return lambda name: json.dumps(name, ensure_ascii=False)[1:-1]
    return lambda name: name


def _renamed_text(text: str, names: list[str], mapping: dict[str, str], escape: Callable[[str], str]) -> str:
    # whole-word occurrences of the original names only, longest first (so "Big" never bites "Bigger")
    pattern = re.compile(r"(?<![\w.+])(" + "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
                         + r")(?![\w])")
    return pattern.sub(lambda match: escape(mapping[match.group(1)]), text)


def _renamed_back(hand: Hand, back: dict[str, str], like: Hand) -> Hand:
    """``hand`` with its players renamed by ``back`` and the original's source (its hash is of the text)."""

    def name(player: str) -> str:
        return back.get(player, player)

    def in_note(note: Note) -> Note:
        text = note.text
        for hostile in sorted(back, key=len, reverse=True):
            text = text.replace(hostile, back[hostile])
        return replace(note, text=text)

    return replace(
        hand,
        source=like.source,
        seats=tuple(replace(seat, player=name(seat.player)) for seat in hand.seats),
        actions=tuple(replace(action, player=name(action.player)) for action in hand.actions),
        deals=tuple(replace(deal, player=name(deal.player)) for deal in hand.deals),
        uncalled=tuple(replace(entry, player=name(entry.player)) for entry in hand.uncalled),
        showdown=tuple(replace(shown, player=name(shown.player)) for shown in hand.showdown),
        awards=tuple(replace(award, player=name(award.player)) for award in hand.awards),
        restatements=tuple(replace(fact, player=name(fact.player))
                           for fact in hand.restatements),
        hero=None if hand.hero is None else name(hand.hero),
        notes=tuple(in_note(note) for note in hand.notes),
    )


def _hands(path: Path, lines: tuple[str, ...] | list[str]) -> list[Hand]:
    parser = detect(lines)
    assert parser is not None, path
    outcomes = parse_lines(parser, lines, str(path))
    hands = [outcome for outcome in outcomes if isinstance(outcome, Hand)]
    assert len(hands) == len(outcomes), [outcome for outcome in outcomes if not isinstance(outcome, Hand)]
    return hands


def _rename_file(path: Path, offset: int) -> tuple[str, list[Hand], dict[str, str]]:
    decoded = read_file(path)
    originals = _hands(path, decoded.lines)
    names = sorted({player for hand in originals for player in hand.players})
    mapping = {name: HOSTILE_NAMES[(index + offset) % len(HOSTILE_NAMES)] + ("" if index < len(HOSTILE_NAMES) else f" #{index}")
               for index, name in enumerate(names)}
    text = _renamed_text("\n".join(decoded.lines), names, mapping, _escape_for(path))
    return text, originals, mapping


@pytest.mark.parametrize("offset", [0, 5])
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: f"{path.parent.name}/{path.name[:30]}")
def test_hostile_names_read_like_the_originals(path: Path, offset: int) -> None:
    text, originals, mapping = _rename_file(path, offset)
    renamed = _hands(path, decode_bytes(text.encode("utf-8")).lines)
    back = {hostile: original for original, hostile in mapping.items()}
    assert len(renamed) == len(originals)
    for original, hand in zip(originals, renamed, strict=True):
        assert set(hand.players) == {mapping[player] for player in original.players}
        assert _renamed_back(hand, back, original) == original, original.hand_id


@pytest.mark.parametrize(("site", "third_marker"), [("fulltilt", "*** 3RD STREET ***"), ("partypoker", "** Dealing **")])
def test_a_colon_name_is_an_action_not_chat(site: str, third_marker: str) -> None:
    """The issue's own case on the two sites with chat: "Bob: calls $5" seated acts, and a chat line
    of another seated player that names him stays chat."""
    path = next((SAMPLES / site).glob("*.txt"))
    text, originals, mapping = _rename_file(path, 0)
    colon_names = {hostile for hostile in mapping.values() if ": " in hostile}
    chatter = next(hostile for hostile in mapping.values() if ":" not in hostile and len(hostile) < 30)
    lines = text.split("\n")
    third = lines.index(third_marker)
    lines.insert(third + 1, f"{chatter}: {sorted(colon_names)[0]} folds lol")
    hand = _renamed_back(_hands(path, lines)[0], {v: k for k, v in mapping.items()}, originals[0])

    def play(hand: Hand) -> list[tuple[object, ...]]:  # the inserted line moves the line numbers
        return [(a.street, a.player, a.kind, a.amount, a.to_amount) for a in hand.actions] + [
            (award.player, award.amount, award.pot, award.half) for award in hand.awards]

    assert play(hand) == play(originals[0])
    acting = {mapping[action.player] for action in originals[0].actions if action.amount}
    assert acting & colon_names, "the sample's renaming must give a player who puts chips in a ': ' name"


def test_prefix_names_resolve_to_the_longest_seated() -> None:
    """"Big" and "Bigger" renamed "q" and "q: folds": the longer name's lines are never his prefix's."""
    path = SAMPLES / "pokerstars" / "handwritten-scoop-and-side-pot.txt"
    decoded = read_file(path)
    originals = _hands(path, decoded.lines)
    mapping = {name: name for hand in originals for name in hand.players} | {"Big": "q", "Bigger": "q: folds"}
    text = _renamed_text("\n".join(decoded.lines), list(mapping), mapping, _escape_for(path))
    assert "q: folds: calls $10" in text
    renamed = _hands(path, text.split("\n"))
    back = {"q": "Big", "q: folds": "Bigger"}
    assert [_renamed_back(hand, back, original) for hand, original in zip(renamed, originals, strict=True)] == originals
    second = renamed[1]
    assert {"q", "q: folds"} <= {action.player for action in second.actions if action.amount}


@pytest.mark.slow
def test_hostile_names_import_through_the_cli(tmp_path: Path) -> None:
    folder = tmp_path / "hostile"
    folder.mkdir()
    expected = 0
    for index, path in enumerate(SAMPLE_FILES):
        text, originals, _ = _rename_file(path, index)
        (folder / f"{index}{path.suffix}").write_text(text, encoding="utf-8")
        expected += len(originals)
    result = CliRunner().invoke(app, ["import", "--db", str(tmp_path / "h.duckdb"), str(folder)])
    assert result.exit_code == 0, result.output
    assert f"{expected} hands found" in result.output.replace(",", ""), result.output
    assert "+ 0 failed" in result.output, result.output
    query = "SELECT count(DISTINCT player) AS n FROM seats WHERE player IN ('q: folds', 'Bob: calls $5')"
    seated = CliRunner().invoke(app, ["sql", "--db", str(tmp_path / "h.duckdb"), "--format", "csv", query])
    assert seated.exit_code == 0, seated.output
    assert seated.output.split() == ["n", "2"], seated.output


@pytest.mark.parametrize("site", ["merge", "ipoker"])
def test_a_name_the_xml_cannot_carry_fails_each_hand_clearly(site: str) -> None:
    """A name written into an attribute or element without XML escaping (a quote, a '<') cannot be
    read back: every hand holding it fails with the reason instead of being stored under another name."""
    path = next((SAMPLES / site).glob("*.xml"))
    lines = list(read_file(path).lines)
    text = "\n".join(lines).replace('"Hero"', '"He"ro"').replace(">Hero<", ">He<ro<")
    parser = detect(text.split("\n"))
    assert parser is not None
    outcomes = parse_lines(parser, text.split("\n"), str(path))
    assert outcomes and all(isinstance(outcome, FailedHand) and "malformed XML" in outcome.reason for outcome in outcomes)
