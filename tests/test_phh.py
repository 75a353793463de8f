"""PHH interoperability: site history -> model -> PHH -> model, PokerKit replaying the export, and
the PHH site parser reading PokerKit's own files.

What a round trip keeps. With hhtool's ``_hhtool_*`` user fields (the default export) every field
of the model comes back except:
  - ``site`` (the hand is now site ``phh``; the origin site is ``_hhtool_site``) and ``hand_id``
    (now ``<site>:<id>``), ``source`` (the PHH file's own) and every ``line`` (the PHH file's lines);
  - the order in which the site printed the antes, and a street's deals (PHH deals from the
    dealer's left; antes are posted automatically).
As plain PHH (``--plain``: what PokerKit or any PHH reader sees) these also survive: the players,
their seats and starting stacks (``inf`` when unknown), every action with its kind, chips, street
total and all-in flag (derived from the notation exactly as the site stated them, on every hand
here), every stated card, the shown cards, each player's net result (``winnings`` are pot shares
and finishing stacks are written), small bet, big bet, bring-in, ante, currency code, table,
seat count, time and time-zone abbreviation. Plain PHH loses: the money unit (amounts stay integers
of it; a comment names it), the stakes' source, hero, dealer seat, game label, tournament id, total
pot, rake, fees, notes, the site's hand descriptions, which pot and half an award was for (only
per-player totals), mucked cards the site revealed, "doesn't show" statements, seats not dealt
in, the sitting-out flag, and whether a hidden card was stated or only implied (PHH deals every
card: a deal the history never printed comes back as an all-hidden deal).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.reader import read_file
from hhtool.model import ActionKind, Hand, ShowStatus, SkippedHand, Source, StakeSource
from hhtool.reports.phh_writer import PhhExportError, hand_to_phh, hands_to_phhs, phh_fields
from hhtool.sites import detect
from hhtool.sites.phh import PARSER
from hhtool.store import Store
from hhtool.store.load import load_hands
from tests.inputs import SAMPLES, require_corpus
from tests.replay_helpers import build_hand

pokerkit = pytest.importorskip("pokerkit")
from pokerkit.notation import parse_action  # noqa: E402

SAMPLE_PHHS = SAMPLES / "phh" / "stud8-examples.phhs"
runner = CliRunner()


# ---------------------------------------------------------------- helpers


def parsed_hands(paths: list[Path]) -> list[Hand]:
    hands: list[Hand] = []
    for path in paths:
        decoded = read_file(path)
        parser = detect(decoded.lines)
        assert parser is not None, path
        hands += [h for h in map(parser.parse, parser.split(decoded.lines, str(path))) if isinstance(h, Hand)]
    return hands


def sample_hands() -> list[Hand]:
    return parsed_hands([p for p in sorted(SAMPLES.rglob("*")) if p.is_file() and p.parent.name != "phh"])


def corpus_hands(site: str = "PokerStars") -> list[Hand]:
    return parsed_hands([p for p in sorted(require_corpus(site).iterdir()) if p.suffix == ".txt"])


def read_phh(text: str, name: str = "t.phhs") -> list[Hand | object]:
    lines = text.split("\n")
    return [PARSER.parse(raw) for raw in PARSER.split(lines, name)]


def normalized(hand: Hand) -> Hand:
    """Without what a PHH round trip cannot keep: origin, lines, the printing order of antes
    and of a street's deals, and the table context (a property of the store the hand is in:
    which other hands of its table it holds)."""
    def no_line(items: tuple) -> tuple:  # type: ignore[type-arg]
        return tuple(replace(item, line=0) for item in items)

    antes = sorted(no_line(tuple(a for a in hand.actions if a.kind is ActionKind.ANTE)), key=lambda a: a.player)
    betting = no_line(tuple(a for a in hand.actions if a.kind is not ActionKind.ANTE))
    learnt = (StakeSource.CONTEXT, StakeSource.SITE, StakeSource.STRUCTURE)  # by the cross-hand pass, in a store
    stakes = replace(hand.stakes, **{name: StakeSource.POSTED if getattr(hand.stakes, name) in learnt
                                     else getattr(hand.stakes, name) for name in ("ante_source", "bring_in_source")})
    return replace(
        hand, site="", hand_id="", stakes=stakes,
        origin_site=None, source=_NO_SOURCE, seats=no_line(hand.seats), actions=(*antes, *betting),
        deals=tuple(sorted(no_line(hand.deals), key=lambda d: (d.street, d.player))), uncalled=no_line(hand.uncalled),
        showdown=no_line(hand.showdown), awards=no_line(hand.awards), stated_pots=no_line(hand.stated_pots),
        restatements=no_line(hand.restatements), notes=tuple(replace(note, line=None) for note in hand.notes),
        finishes=no_line(hand.finishes),
    )


#: the source left out of a comparison (a Source, as the field's type says)
_NO_SOURCE = Source("", 0, 0, "")


def differences(before: Hand, after: Hand) -> list[str]:
    a, b = normalized(before), normalized(after)
    return [f.name for f in fields(Hand) if getattr(a, f.name) != getattr(b, f.name)]


def load_history(text: str) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit 0.7 does not know the spec's time_zone_abbreviation yet
        return pokerkit.HandHistory.loads(text)


def strict_replay(text_or_history: str | object) -> tuple[object, object]:
    """Play a PHH hand in PokerKit taking every deal, bet and show from the file: only burn cards
    (which PHH leaves out) are supplied. PokerKit's own loader would instead repair a hand that
    does not fit (dealing '??', checking or folding for a player), which would hide a bad export."""
    history = load_history(text_or_history) if isinstance(text_or_history, str) else text_or_history
    state = history.create_state()  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about dealing a card it would not have dealt
        for action in history.actions:  # type: ignore[attr-defined]
            while state.can_burn_card():
                state.burn_card("??")
            parse_action(state, action, history.parse_value)  # type: ignore[attr-defined]
    return history, state


def needs_unknown_cards(text: str) -> tuple[bool, bool]:
    """(an up card PokerKit needs to pick who acts is hidden, a hand it must rank at the end is
    not fully known), read from the PHH actions."""
    history = load_history(text)
    dealt: Counter[str] = Counter()
    up_hidden, show_hidden = False, False
    last_show: dict[str, str] = {}
    for action in history.actions:
        words = action.split()
        if words[:2] == ["d", "dh"]:
            cards = [words[3][i:i + 2] for i in range(0, len(words[3]), 2)]
            for card in cards:
                if dealt[words[2]] in (2, 3, 4, 5) and "?" in card:
                    up_hidden = True
                dealt[words[2]] += 1
        elif len(words) >= 2 and words[1] == "sm":
            last_show[words[0]] = words[2] if len(words) > 2 else ""
    show_hidden = any("?" in cards or 0 < len(cards) < 14 for cards in last_show.values())
    return up_hidden, show_hidden


# ---------------------------------------------------------------- round trips


def assert_round_trip(hands: list[Hand]) -> None:
    assert hands
    back = read_phh(hands_to_phhs(hands))
    assert len(back) == len(hands)
    for original, again in zip(hands, back, strict=True):
        assert isinstance(again, Hand), again
        assert (again.site, again.hand_id) == ("phh", f"{original.site}:{original.hand_id}")
        assert differences(original, again) == [], (original.site, original.hand_id)


def test_round_trip_of_the_sample_histories_keeps_every_field() -> None:
    assert_round_trip(sample_hands())


def test_round_trip_of_the_pokerstars_corpus_keeps_every_field() -> None:
    assert_round_trip(corpus_hands())


@pytest.mark.parametrize("site", ["FullTilt", "Absolute", "Bovada", "OnGame", "Winamax", "PartyPoker", "KingsClub"])
def test_round_trip_of_other_corpus_sites(site: str) -> None:
    assert_round_trip(corpus_hands(site))


def test_plain_phh_keeps_play_cards_and_results() -> None:
    hands = sample_hands()
    back = read_phh(hands_to_phhs(hands, user_fields=False))
    for original, again in zip(hands, back, strict=True):
        assert isinstance(again, Hand)
        key = (original.site, original.hand_id)
        dealt_in = {s.player for s in again.seats}
        assert [(s.seat, s.player, s.stack) for s in original.seats if s.player in dealt_in] == \
               [(s.seat, s.player, s.stack) for s in again.seats], key
        assert sorted((a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in original.actions) == \
               sorted((a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in again.actions), key
        stated = {(d.street, d.player, d.down, d.up) for d in original.deals}
        read = {(d.street, d.player, d.down, d.up) for d in again.deals}
        assert stated <= read and all(set(extra[2] + extra[3]) == {None} for extra in read - stated), key
        assert all(original.net_won(p) == again.net_won(p) for p in dealt_in), key
        shown = {s.player: s.cards for s in original.showdown if s.status is ShowStatus.SHOWN and s.cards}
        assert all(again_shown.cards[:len(shown[again_shown.player])] == shown[again_shown.player]
                   for again_shown in again.showdown if again_shown.player in shown), key
        for name in ("ante", "bring_in", "small_bet", "big_bet"):  # an unknown one is filled in: PHH requires it
            assert getattr(original.stakes, name) in (None, getattr(again.stakes, name)), (key, name)
        # a time zone PokerKit names (IANA's) is kept; an abbreviation (ET) has no PokerKit field: plain drops it
        kept_zone = original.timezone if original.timezone and "/" in original.timezone else None
        assert (again.started_at, again.timezone, again.table_name) == \
               (original.started_at, kept_zone, original.table_name), key


def test_actions_the_notation_reads_otherwise_keep_the_site_numbers() -> None:
    """A call the site states for less than the bet (no all-in) is what the audit reports; PHH's
    ``cc`` would read the full call, so the export records the site's numbers beside it."""
    hand = build_hand("""
seats A=100 B=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [?? ??] 2c, B [?? ??] 9s
A bring 2
B complete 4
A call 1
4th A 3c, B 9h
A check
B bet 4
A fold
return B 4
collect B 11
rake 0
""")
    user = dict(phh_fields(hand))
    assert user["_hhtool_betting"] == [{"action": 2, "player": "A", "kind": "call", "amount": 1, "to": 3, "all_in": False}]
    [again] = read_phh(hand_to_phh(hand), "one.phh")
    assert isinstance(again, Hand) and differences(hand, again) == []
    [plain] = read_phh(hand_to_phh(hand, user_fields=False), "one.phh")
    assert isinstance(plain, Hand) and plain.actions[4].amount == 2  # what PHH says without the record


# ---------------------------------------------------------------- PokerKit


def check_with_pokerkit(hands: list[Hand]) -> Counter[str]:
    """Every export loads in PokerKit; where the cards PokerKit needs are known, it plays the hand
    to the end from the file alone and its payouts equal the site's (less the rake)."""
    seen: Counter[str] = Counter()
    for hand in hands:
        text = hand_to_phh(hand)
        history = load_history(text)
        assert len(history.starting_stacks) == len(history.players)  # type: ignore[attr-defined]
        up_hidden, show_hidden = needs_unknown_cards(text)
        if up_hidden:
            seen["up card hidden"] += 1
            continue
        history, state = strict_replay(text)
        assert not state.status, (hand.site, hand.hand_id)  # type: ignore[attr-defined]
        seen["replayed"] += 1
        if show_hidden:
            continue
        paid = [end - start for end, start in zip(state.stacks, state.starting_stacks, strict=True)]  # type: ignore[attr-defined]
        site = [hand.net_won(name) for name in history.players]  # type: ignore[attr-defined]
        rake = [p - s for p, s in zip(paid, site, strict=True)]
        if hand.rake is not None:
            assert sum(rake) == hand.rake + hand.fees, (hand.site, hand.hand_id, paid, site)
        assert all(r >= 0 for r in rake) and all(hand.collected_by(n) for n, r in zip(history.players, rake, strict=True) if r)
        seen["payouts equal" if not any(rake) else "payouts equal after rake"] += 1
    return seen


@pytest.mark.slow
def test_pokerkit_replays_the_exported_sample_hands() -> None:
    seen = check_with_pokerkit(sample_hands())
    assert seen["replayed"] >= 30 and seen["payouts equal"] + seen["payouts equal after rake"] >= 30, seen


def test_pokerkit_replays_the_exported_pokerstars_corpus() -> None:
    hands = corpus_hands()
    seen = check_with_pokerkit(hands)
    assert seen["replayed"] == len(hands) and seen["payouts equal"] + seen["payouts equal after rake"] >= 20, seen


def test_all_in_before_seventh_street_shows_where_pokerkit_asks() -> None:
    """Heads-up, one player all-in on 4th: PokerKit turns the hands up after 4th and again on 7th."""
    hand = build_hand("""
seats A=9 B=100
stakes ante=1 bring=2 small=4 big=8
antes
3rd A [As 2s] 3c, B [Kc Kd] Kh
A bring 2
B complete 4
A call 2
4th A 4c, B 9h
B bet 4
A call 4 allin
5th A 5h, B 9c
6th A 7c, B 2d
7th A [8d], B [Jc]
show A [As 2s 3c 4c 5h 7c 8d]
show B [Kc Kd Kh 9h 9c 2d Jc]
collect B 9 high
collect A 9 low
rake 0
""")
    text = hand_to_phh(hand)
    actions = load_history(text).actions  # type: ignore[attr-defined]
    assert actions.index("p1 sm As2s3c4c") < actions.index("d dh p1 5h") < actions.index("p1 sm As2s3c4c5h7c8d")
    _, state = strict_replay(text)
    assert not state.status and state.stacks == [9, 100]  # type: ignore[attr-defined]


def test_pot_limit_stud_is_refused() -> None:
    hand = build_hand("seats A=10 B=10\nstakes structure=pot_limit\nantes\n3rd A [?? ??] 2c, B [?? ??] 5s\nA bring 2\nB fold")
    with pytest.raises(PhhExportError, match="no PHH variant"):
        hand_to_phh(hand)


# ---------------------------------------------------------------- the PHH site parser


def pokerkit_hand(rng: random.Random) -> tuple[str, list[int]]:
    """A random legal F7S/8 hand played by PokerKit and written by PokerKit: (PHH text, payoffs)."""
    automation = pokerkit.Automation
    automations = (automation.ANTE_POSTING, automation.BET_COLLECTION, automation.BLIND_OR_STRADDLE_POSTING,
                   automation.CARD_BURNING, automation.HOLE_DEALING, automation.HOLE_CARDS_SHOWING_OR_MUCKING,
                   automation.HAND_KILLING, automation.CHIPS_PUSHING, automation.CHIPS_PULLING)
    random.seed(rng.random())  # PokerKit shuffles with the random module
    game = pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter(automations, True, 1, 2, 4, 8,
                                                                     mode=pokerkit.Mode.CASH_GAME)
    stacks = [rng.choice((rng.randint(3, 40), rng.randint(40, 300))) for _ in range(rng.randint(2, 6))]
    state = game(stacks, len(stacks))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns when a player folds to an all-in he need not call
        while state.status:
            if state.can_post_bring_in() and rng.random() < 0.7:
                state.post_bring_in()
            elif state.can_complete_bet_or_raise_to() and (rng.random() < 0.3 or not state.can_check_or_call()):
                state.complete_bet_or_raise_to()
            elif state.can_fold() and state.checking_or_calling_amount and rng.random() < 0.15:
                state.fold()
            else:
                state.check_or_call()
    history = pokerkit.HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    return history.dumps(), [end - start for end, start in zip(state.stacks, stacks, strict=True)]


@pytest.mark.slow
def test_hands_written_by_pokerkit_read_back_with_its_payoffs() -> None:
    rng = random.Random(20240917)
    for number in range(150):
        text, payoffs = pokerkit_hand(rng)
        [hand] = read_phh(text, f"pk{number}.phh")
        assert isinstance(hand, Hand), (hand, text)
        assert [hand.net_won(seat.player) for seat in hand.seats] == payoffs, text
        for action in hand.actions:  # every action line points at its own notation
            if action.kind is not ActionKind.ANTE:
                assert f"p{hand.players.index(action.player) + 1} " in text.split("\n")[action.line - 1]


def test_other_variants_are_skipped_and_bad_toml_fails_at_its_line() -> None:
    text = '[1]\nvariant = "NT"\nantes = [0, 0]\n\n[2]\nvariant = "F7S/8"\nantes = [1, 1\nbring_in = 2\n'
    skipped, failed = read_phh(text)
    assert isinstance(skipped, SkippedHand) and skipped.game == "PHH NT"
    assert failed.line == 8 and "not valid TOML" in failed.reason  # type: ignore[attr-defined]


def test_decimal_amounts_become_exact_integers_of_a_recorded_unit() -> None:
    text = """variant = 'F7S/8'
antes = [0.25, 0.25]
bring_in = 0.5
small_bet = 2
big_bet = 4
starting_stacks = [10, 12.5]
actions = ['d dh p1 ????2c', 'd dh p2 ????9s', 'p1 pb', 'p2 cbr 2', 'p1 f']
winnings = [0, 1.5]
currency = 'USD'
"""
    [hand] = read_phh(text, "d.phh")
    assert isinstance(hand, Hand)
    assert hand.stakes.unit == 100 and hand.stakes.currency == "USD" and hand.seats[1].stack == 1250
    assert [(a.kind, a.amount) for a in hand.actions[2:]] == \
           [(ActionKind.BRING_IN, 50), (ActionKind.COMPLETE, 200), (ActionKind.FOLD, 0)]
    assert [(r.player, r.amount) for r in hand.uncalled] == [("p2", 150)]
    assert hand.net_won("p2") == 75 and any("1/100" in note.text for note in hand.notes)


def test_hand_ids_come_from_the_hand_field_and_the_hand_text() -> None:
    body = 'variant = "F7S/8"\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 4\nbig_bet = 8\nstarting_stacks = [9, 9]\n'
    first, again, other = (read_phh(text)[0] for text in (
        f"[1]\n{body}hand = 7\n", f"# another file\n[12]\n{body}hand = 7\n", f"[1]\n{body}hand = 8\n"))
    assert first.hand_id == again.hand_id != other.hand_id  # type: ignore[attr-defined]
    assert first.hand_id.startswith("7-") and len(first.hand_id) == 18  # type: ignore[attr-defined]
    [keyed] = read_phh(f"[5]\n{body}")
    assert keyed.hand_id.startswith("5-")  # type: ignore[attr-defined]


def test_sections_keep_sub_tables_and_true_line_numbers() -> None:
    text = "# comment\n\n[1]\nvariant = 'FR'\n[1._x]\na = 1\n[_notes]\nb = 2\n\n[2]\nvariant = 'F7S/8'\n"
    raws = list(PARSER.split(text.split("\n"), "s.phhs"))
    assert [(raw.first_line, raw.last_line) for raw in raws] == [(3, 8), (10, 11)]


def test_detected_beside_the_other_sites() -> None:
    text = hands_to_phhs(sample_hands()[:3])
    parser = detect(text.split("\n"))
    assert parser is not None and parser.name == "phh"


# ---------------------------------------------------------------- the command and the store


@pytest.mark.slow
def test_export_command_and_import_of_its_files_give_the_same_hands(tmp_path: Path) -> None:
    db, again_db = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    assert runner.invoke(app, ["import", str(SAMPLES), "--db", db]).exit_code in (0, 1)
    result = runner.invoke(app, ["export", "--format", "phh", "--out", str(tmp_path / "all.phhs"), "--db", db])
    assert result.exit_code == 0 and "hands)" in result.output and "wrote " in result.output, result.output
    result = runner.invoke(app, ["export", "--format", "phh", "--out", str(tmp_path / "stars"), "--site", "pokerstars",
                                 "--db", db])
    assert result.exit_code == 0, result.output
    with Store(db, read_only=True) as store:
        stored = list(load_hands(store))
    stars = [h for h in stored if h.site == "pokerstars"]
    assert sorted(p.name for p in (tmp_path / "stars").iterdir()) == sorted(f"pokerstars-{h.hand_id}.phh" for h in stars)
    assert runner.invoke(app, ["import", str(tmp_path / "all.phhs"), "--db", again_db]).exit_code == 0
    with Store(again_db, read_only=True) as store:
        back = {h.hand_id: h for h in load_hands(store)}
    assert len(back) == len(stored) and not {h.site for h in back.values()} - {"phh"}
    for hand in stored:
        assert differences(hand, back[f"{hand.site}:{hand.hand_id}"]) == [], hand.hand_id
    player = stars[0].seats[0].player
    result = runner.invoke(app, ["export", "--format", "phh", "--out", str(tmp_path / "p.phhs"), "--player", player,
                                 "--site", "pokerstars", "--db", db])
    expected = sum(player in h.players for h in stars)
    assert f"({expected} hands)" in result.output


def test_export_command_usage_errors(tmp_path: Path) -> None:
    assert runner.invoke(app, ["export", "--format", "phh", "--db", ":memory:"]).exit_code == 2
    assert runner.invoke(app, ["export", str(tmp_path), "--site", "x", "--db", ":memory:"]).exit_code == 2
    assert runner.invoke(app, ["export", "--db", ":memory:"]).exit_code == 2


# ---------------------------------------------------------------- the sample file


def test_sample_phhs_is_the_export_of_sample_hands_and_plays_in_pokerkit() -> None:
    text = SAMPLE_PHHS.read_text(encoding="utf-8")
    by_id = {f"{h.site}:{h.hand_id}": h for h in sample_hands()}
    back = read_phh(text, str(SAMPLE_PHHS))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = list(pokerkit.HandHistory.loads_all(text))
    assert len(back) >= 5 and len(histories) == len(back)
    for hand, history in zip(back, histories, strict=True):
        assert isinstance(hand, Hand)
        original = by_id[hand.hand_id]
        assert normalized(original).actions == normalized(hand).actions
        assert {p: original.net_won(p) for p in original.players} == {p: hand.net_won(p) for p in hand.players}
        _, state = strict_replay(history)
        assert not state.status  # type: ignore[attr-defined]


@pytest.mark.slow
def test_phh_written_by_hhtool_is_audited_under_the_dealing_sites_profile(tmp_path: Path) -> None:
    # Full Tilt takes the rake from the main pot only; under the default profile that hand's
    # awards would differ, under the fulltilt profile (chosen from _hhtool_site) they do not.
    fulltilt = SAMPLES / "fulltilt"
    db = str(tmp_path / "ft.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["import", str(fulltilt), "--db", db]).exit_code == 0
    out = tmp_path / "ft.phhs"
    assert runner.invoke(app, ["export", "--format", "phh", "--out", str(out), "--db", db]).exit_code == 0
    phh_db = str(tmp_path / "phh.duckdb")
    assert runner.invoke(app, ["import", str(out), "--db", phh_db]).exit_code == 0
    with Store(phh_db) as store:
        assert {row[0] for row in store.run("SELECT DISTINCT rules_profile FROM hands")} == {"fulltilt"}
        assert store.run("SELECT count(*) FROM violations")[0][0] == 0
        assert {row[0] for row in store.run("SELECT DISTINCT origin_site FROM hands")} == {"fulltilt"}
