"""All-in EV (hhtool/equity/allin.py): the worked example of docs/allin-ev.md, the reasons a hand has
none, the grouping of completions against a deal-by-deal split, and money conserved over every
all-in hand of the corpus, the samples and simulated hands.

The deal values come from tests/equity_reference.py (itertools and hhtool.evaluation), written
apart from the engine, unless the test says otherwise."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from hhtool.equity.allin import MILLI, AllInEv, Reason, allin_ev, allin_spot, hand_seed, milli_shares
from hhtool.ingest.reader import read_file
from hhtool.model import Hand
from hhtool.replay import walk
from hhtool.replay.pots import evaluate, split_pots
from hhtool.replay.profiles import RuleProfile, profile_for
from hhtool.replay.timeline import ReplayState
from hhtool.sites import detect
from tests.equity_reference import reference_deal_values
from tests.inputs import SAMPLES, require_corpus
from tests.replay_helpers import build_hand, edit

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "allin-ev.md").read_text(encoding="utf-8")


def _block(kind: str) -> str:
    found = re.search(rf"```{kind}\n(.*?)```", DOC, re.S)
    assert found, f"docs/allin-ev.md has no ```{kind} block"
    return found.group(1)


EXAMPLE = _block("hand")


def _expected() -> tuple[dict[str, str], dict[str, int]]:
    lines = _block("ev").split("\n")
    profile = dict(word.split("=") for word in lines[0].split()[1:])
    return profile, {name: int(value) for name, value in (line.split() for line in lines[1:] if line.strip())}


def _ev(hand: Hand, profile: RuleProfile, **options: int) -> AllInEv | str:
    return allin_ev(hand, walk(hand, profile), profile, reference_deal_values, **options)


@pytest.mark.slow
def test_the_worked_example_of_the_docs() -> None:
    settings, expected = _expected()
    hand = build_hand(EXAMPLE)
    for tie_rule in (settings["odd_unit_tied_half"], "best_card_suit"):
        profile = RuleProfile(odd_unit_tied_half=tie_rule)  # type: ignore[arg-type]
        outcome = _ev(hand, profile)
        assert isinstance(outcome, AllInEv), outcome
        assert (outcome.exact, outcome.deals, outcome.paid, int(outcome.street)) == (True, 34 * 33 * 32, 97, 6)
        assert dict(outcome.ev_net) == expected, tie_rule
    # the example is a legal hand whose site paid what the rules award (A 15, B 49, C 33)
    state = walk(hand, RuleProfile())
    assert state.settlement.awards == {"A": 15, "B": 49, "C": 33}


@pytest.mark.slow
def test_the_example_under_all_cards_suits_depends_on_the_other_seventh_cards() -> None:
    """rr_suit: the odd unit of the tied low goes to the lowest card of all seven, which A's own
    7th card may change: those deals are split one by one, and the result differs from position's."""
    hand = build_hand(EXAMPLE)
    profile = RuleProfile(odd_unit_tied_half="rr_suit")
    outcome = _ev(hand, profile)
    assert isinstance(outcome, AllInEv)
    assert outcome.ev_net == _deal_by_deal(hand, walk(hand, profile), profile)
    assert outcome.ev_net != _expected()[1]


def _deal_by_deal(hand: Hand, state: ReplayState, profile: RuleProfile, **options: int) -> dict[str, int]:
    """The EV by splitting every deal with its own cards (no grouping), rounded as allin.py rounds."""
    spot = allin_spot(hand, state)
    assert not isinstance(spot, str)
    values = reference_deal_values([list(k) for k in spot.known], list(spot.dead), seed=hand_seed(hand), **options)
    contributions = {p: state.spent[p] - state.returns[p] for p in state.dealt_in}
    totals = dict.fromkeys(spot.players, 0)
    for row in range(values.deals):
        cards = dict(zip(spot.players, values.hands[row], strict=True))
        _, awards, reasons, _, _ = split_pots(hand, profile, state.order, contributions, spot.players, spot.players,
                                              evaluate(cards, spot.players), cards, state.all_in,
                                              state.settlement.deduction)
        assert not reasons
        for player, amount in awards.items():
            totals[player] += amount
    paid = sum(contributions.values()) - min(state.settlement.deduction, sum(contributions.values()))
    shares = milli_shares([totals[p] * MILLI for p in spot.players], values.deals, paid * MILLI)
    ev = {p: -contributions[p] * MILLI for p in state.dealt_in}
    for player, won in zip(spot.players, shares, strict=True):
        ev[player] += won
    return ev


@pytest.mark.slow
def test_the_reasons_where_it_is_not_defined() -> None:
    profile = RuleProfile()
    hidden = edit(edit(EXAMPLE, "C [2c 3c] Jh", "C [?? ??] Jh"), "C [Ah]", "C [??]")  # C's down cards as others see them
    unshown = build_hand(edit(hidden, "show C", "noshow C"))
    assert _ev(unshown, profile) == Reason.UNSHOWN
    shown = build_hand(edit(hidden, "show C", "show C [2c 3c Jh 4d 5h Js Ah]"))  # shown: known again, the same EV
    assert isinstance(_ev(shown, profile), AllInEv) and _ev(shown, profile) == _ev(build_hand(EXAMPLE), profile)
    # C only calls on 6th: B and C keep chips, so the betting goes on to 7th street
    calls = edit(edit(EXAMPLE, "C call 37 allin", "C call 20"), "seats A=20 B=100 C=40", "seats A=20 B=100 C=100")
    assert _ev(build_hand(calls), profile) == Reason.LAST_CARD
    folded = build_hand("""seats A=20 B=100
stakes ante=1 bring=2 small=4 big=8 unit=1
antes
3rd A [As 2d] 3h, B [Kc Kd] Kh
A bring 2
B fold
return A 2
collect A 2
rake 0
""")
    assert _ev(folded, profile) == Reason.UNCONTESTED


def test_sampled_spots_repeat_and_agree_with_the_deal_by_deal_split() -> None:
    """On 3rd street there are too many completions: a seeded sample, the same on every run."""
    hand = build_hand("""seats A=20 B=100 C=20
stakes ante=1 bring=2 small=4 big=8 structure=no_limit unit=1
antes
3rd A [As 2d] 3h, B [Kc Kd] Kh, C [2c 3c] Jh
A bring 2
B raise 19
C call 19 allin
A call 17 allin
4th A 4c, B Ks, C 4d
5th A 5s, B Qc, C 5h
6th A 6d, B Qd, C Js
7th A [7c], B [9d], C [Ah]
show A
show B
show C
rake 3
""")
    profile = RuleProfile()
    state = walk(hand, profile)
    first = allin_ev(hand, state, profile, reference_deal_values, samples=300, budget=1000)
    again = allin_ev(hand, state, profile, reference_deal_values, samples=300, budget=1000)
    assert isinstance(first, AllInEv) and not first.exact and first.deals == 300
    assert first == again
    assert first.ev_net == _deal_by_deal(hand, state, profile, samples=300, budget=1000)


def test_milli_shares_round_to_the_exact_total() -> None:
    assert milli_shares([2, 2, 2], 3, 2) == [1, 1, 0]
    assert milli_shares([3, 1], 2, 2) == [2, 0]  # 1.5 and 0.5: equal remainders, the first takes the unit
    with pytest.raises(ValueError):
        milli_shares([5, 5], 2, 9)  # 5 is the sum, 9 is not


def _hands_of(path: Path) -> Iterator[Hand]:
    decoded = read_file(path)
    parser = detect(decoded.lines)
    if parser is None:
        return
    for raw in parser.split(decoded.lines, str(path)):
        outcome = parser.parse(raw)
        if isinstance(outcome, Hand):
            yield outcome


def _conserved(hands: Iterator[Hand], engine: bool = False, **options: int) -> dict[str, int]:
    """Each hand's EV under its site's profile: the players' EV plus what they put in is what the
    pots paid out, to the thousandth, and (a decided hand) what the replay's own awards sum to."""
    counts: dict[str, int] = {}
    for hand in hands:
        profile = profile_for(hand, None).profile
        state = walk(hand, profile)
        outcome = allin_ev(hand, state, profile, None if engine else reference_deal_values, **options)
        status = outcome if isinstance(outcome, str) else outcome.status
        counts[status] = counts.get(status, 0) + 1
        if isinstance(outcome, str):
            continue
        put_in = sum(state.spent[p] - state.returns[p] for p in state.dealt_in)
        assert sum(outcome.ev_net.values()) + put_in * MILLI == outcome.paid * MILLI, hand.hand_id
        if state.settlement.awards is not None:
            assert sum(state.settlement.awards.values()) == outcome.paid, hand.hand_id
    return counts


def test_money_is_conserved_over_the_corpus_and_the_samples() -> None:
    files = [p for p in sorted(SAMPLES.rglob("*")) if p.is_file()]
    counts = _conserved((hand for path in files for hand in _hands_of(path)), samples=400, budget=4000)
    assert counts.get(Reason.EXACT, 0) + counts.get(Reason.SAMPLED, 0) >= 1, counts
    corpus = require_corpus()
    paths = [p for p in sorted(corpus.rglob("*")) if p.is_file() and p.suffix not in (".hp", ".json", ".md")]
    counts = _conserved((hand for path in paths for hand in _hands_of(path)), engine=True)
    print("corpus:", counts)  # (53 hands: none with an EV, 2 all-in hands whose betting went on to 7th street)


def _simulated(tmp_path: Path, hands: int, seed: int) -> Iterator[Hand]:
    from typer.testing import CliRunner

    from hhtool.cli import app

    out = tmp_path / f"sim{seed}.txt"
    result = CliRunner().invoke(app, ["simulate", "--hands", str(hands), "--seed", str(seed), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return _hands_of(out)


def test_money_is_conserved_over_simulated_hands(tmp_path: Path) -> None:
    counts = _conserved(_simulated(tmp_path, 1_000, 7), samples=300, budget=3000)
    assert counts.get(Reason.EXACT, 0) >= 3 and counts.get(Reason.SAMPLED, 0) >= 3, counts


@pytest.mark.slow
def test_money_is_conserved_over_ten_thousand_simulated_hands(tmp_path: Path) -> None:
    """With the real engine and its defaults (what the import computes)."""
    counts = _conserved(_simulated(tmp_path, 10_000, 11), engine=True)
    print(counts)
    assert counts.get(Reason.EXACT, 0) + counts.get(Reason.SAMPLED, 0) >= 100, counts


@pytest.mark.slow
@pytest.mark.parametrize("changes", [{"odd_unit_tied_half": "rr_suit"}, {"pots_formed_at": "showdown"},
                                     {"low_half_exists": "hand", "odd_unit_hi_lo": "low"},
                                     {"rake_allocation": "main_pot", "tied_remainder": "first"}])
def test_grouping_agrees_with_the_deal_by_deal_split_under_every_profile(tmp_path: Path, changes: dict[str, str]) -> None:
    checked = 0
    for hand in _simulated(tmp_path, 600, 3):
        profile = replace(profile_for(hand, None).profile, **changes)  # type: ignore[arg-type]
        state = walk(hand, profile)
        outcome = allin_ev(hand, state, profile, reference_deal_values, samples=200, budget=2000)
        if isinstance(outcome, AllInEv):
            assert outcome.ev_net == _deal_by_deal(hand, state, profile, samples=200, budget=2000), hand.hand_id
            checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_the_engine_gives_the_reference_values() -> None:
    """The real engine (hhtool.equity.deals, the import's default) against the reference: the doc's
    example exactly, and the same rule profile's split on a sampled 3rd-street spot's exact count."""
    hand = build_hand(EXAMPLE)
    for tie_rule in ("position", "rr_suit"):
        profile = RuleProfile(odd_unit_tied_half=tie_rule)  # type: ignore[arg-type]
        state = walk(hand, profile)
        assert allin_ev(hand, state, profile) == allin_ev(hand, state, profile, reference_deal_values)


@pytest.mark.slow
def test_the_import_stores_each_hands_ev_and_money_is_conserved(tmp_path: Path) -> None:
    """`hhtool import` of simulated hands: every hand says whether it has an EV and why not; where it
    has one, each player's EV net sums over the hand to the net the site paid (thousandths)."""
    import duckdb
    from typer.testing import CliRunner

    from hhtool.cli import app

    history, db = tmp_path / "sim.txt", tmp_path / "sim.duckdb"
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "--hands", "400", "--seed", "7", "--out", str(history), "-q"]).exit_code == 0
    result = runner.invoke(app, ["import", str(history), "--db", str(db), "--jobs", "1", "-q"])
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(db), read_only=True) as con:
        statuses = dict(con.execute("SELECT allin_ev, count(*) FROM hands GROUP BY 1").fetchall())
        sums = con.execute("""SELECT h.hand_id, h.allin_ev, sum(r.ev_net), sum(r.net), count(r.ev_net), count(*)
                              FROM hands h JOIN results r USING (site, hand_id) GROUP BY ALL""").fetchall()
    assert set(statuses) <= {*Reason.WORDS} and None not in statuses, statuses
    assert statuses.get(Reason.EXACT, 0) + statuses.get(Reason.SAMPLED, 0) >= 3, statuses
    assert statuses.get(Reason.NO_ALL_IN, 0) > 300, statuses
    for hand_id, status, ev_sum, net_sum, with_ev, players in sums:
        if status in (Reason.EXACT, Reason.SAMPLED):
            assert (ev_sum, with_ev) == (net_sum * MILLI, players), hand_id
        else:
            assert (ev_sum, with_ev) == (None, 0), hand_id


@pytest.mark.slow
def test_stats_report_ev_net_ev_bb_per_100_and_luck(tmp_path: Path) -> None:
    """`hhtool stats`: evnet, evbb/100 and luck in --help, the table (--columns "ev net"), CSV and
    JSON; per player, ev net + luck = net, and over the players of the hands ev net sums as net."""
    import json

    from typer.testing import CliRunner

    from hhtool.cli import app

    history, db = tmp_path / "sim.txt", str(tmp_path / "sim.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "--hands", "300", "--seed", "7", "--out", str(history), "-q"]).exit_code == 0
    assert runner.invoke(app, ["import", str(history), "--db", db, "--jobs", "1", "-q"]).exit_code == 0
    shown = runner.invoke(app, ["stats", "--help"], env={"COLUMNS": "80"})
    assert all(word in shown.output for word in ("evnet", "evbb/100", "luck"))
    table = runner.invoke(app, ["stats", "--db", db, "--columns", "player,hands,net,ev net,ev bb/100,luck"],
                          env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.output
    assert "evnet" in table.output and "luck" in table.output
    rows = json.loads(runner.invoke(app, ["stats", "--db", db, "--format", "json"]).output)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert all(row["ev_net_won"] + row["luck"] == row["net_won"] for row in rows)
    assert any(row["luck"] != 0 for row in rows)  # some all-in went for or against its expectation
    csv = runner.invoke(app, ["stats", "--db", db, "--format", "csv"]).output.splitlines()[0].split(",")
    assert {"ev_net_won", "ev_bb_per_100", "luck"} <= set(csv)
    wrong = runner.invoke(app, ["stats", "--db", db, "--columns", "ev nett"], env={"COLUMNS": "80"})
    assert wrong.exit_code == 2 and "did you mean" in wrong.output and "Traceback" not in wrong.output


@pytest.mark.slow
def test_graph_draws_an_all_in_ev_line(tmp_path: Path) -> None:
    """`hhtool graph`: HTML and PNG with the "All-in EV" line beside total, showdown and non-showdown;
    its last value is the player's evnet of `stats`."""
    import json

    from typer.testing import CliRunner

    from hhtool.cli import app

    history, db = tmp_path / "sim.txt", str(tmp_path / "sim.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "--hands", "300", "--seed", "7", "--out", str(history), "-q"]).exit_code == 0
    assert runner.invoke(app, ["import", str(history), "--db", db, "--jobs", "1", "-q"]).exit_code == 0
    rows = json.loads(runner.invoke(app, ["stats", "--db", db, "--format", "json"]).output)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    lucky = next(row for row in rows if row["luck"] != 0)
    page = tmp_path / "w.html"
    result = runner.invoke(app, ["graph", "--db", db, "--player", lucky["player"], "--out", str(page)],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert "All-in EV" in text and "Non-showdown" in text
    from hhtool.money import format_money

    assert f"<tr><th>All-in EV</th><td>{format_money(lucky['ev_net_won'], lucky['unit'])}</td>" in text
    image = tmp_path / "w.svg"  # the chart alone, drawn by the same definition: the EV line dashed
    assert runner.invoke(app, ["graph", "--db", db, "--player", lucky["player"], "--out", str(image)]).exit_code == 0
    assert re.search(r'<polyline class="line-ev"[^>]*stroke-dasharray', image.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_show_gives_each_streets_equity_and_the_all_in_ev(tmp_path: Path) -> None:
    """`hhtool show` (text at 80 columns, JSON): the equities of the streets where every live hand is
    known, at the moment the betting closed, and the EV; --hide-hole shows none of them."""
    import json

    import duckdb
    from rich.cells import cell_len
    from typer.testing import CliRunner

    from hhtool.cli import app

    history, db = tmp_path / "sim.txt", str(tmp_path / "sim.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "--hands", "300", "--seed", "7", "--out", str(history), "-q"]).exit_code == 0
    assert runner.invoke(app, ["import", str(history), "--db", db, "--jobs", "1", "-q"]).exit_code == 0
    with duckdb.connect(db, read_only=True) as con:
        hand_id, street, stored = con.execute(
            "SELECT h.hand_id, h.allin_street, list(r.ev_net ORDER BY r.player) FROM hands h JOIN results r "
            "USING (site, hand_id) WHERE h.allin_ev = 'exact' GROUP BY ALL ORDER BY 1 LIMIT 1").fetchone()
    text = runner.invoke(app, ["show", hand_id, "--db", db], env={"COLUMNS": "80"})
    assert text.exit_code == 0, text.output
    assert "*** all-in equity ***" in text.output and "all-in EV, the betting closed on" in text.output
    assert all(cell_len(line) <= 80 for line in text.output.splitlines())
    described = json.loads(runner.invoke(app, ["show", hand_id, "--db", db, "--format", "json"]).output)
    allin = described["allin"]
    assert allin["status"] == "exact" and allin["street"] == street
    assert [allin["ev_net_milli"][p] for p in sorted(allin["ev_net_milli"])] == [v for v in stored if v is not None]
    closing = allin["streets"][-1]
    assert closing["street"] == street and sorted(closing["equity"]) == sorted(allin["players"])
    assert abs(sum(closing["equity"].values()) - 1) < 1e-9
    hidden = runner.invoke(app, ["show", hand_id, "--db", db, "--hide-hole"], env={"COLUMNS": "80"})
    assert hidden.exit_code == 0 and "all-in equity" not in hidden.output


@pytest.mark.slow
def test_the_web_pages_show_the_all_in_ev(tmp_path: Path) -> None:
    """`hhtool serve`: the hand page's all-in table, the player page's EV net and luck, the graph's line."""
    import duckdb

    starlette_testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed")
    from typer.testing import CliRunner

    from hhtool.cli import app
    from hhtool.service.serving import HeldStore
    from hhtool.service.stores import Database
    from hhtool.web.app import create_app

    history, db = tmp_path / "sim.txt", str(tmp_path / "sim.duckdb")
    runner = CliRunner()
    assert runner.invoke(app, ["simulate", "--hands", "300", "--seed", "7", "--out", str(history), "-q"]).exit_code == 0
    assert runner.invoke(app, ["import", str(history), "--db", db, "--jobs", "1", "-q"]).exit_code == 0
    with duckdb.connect(db, read_only=True) as con:
        hand_id, player = con.execute(
            "SELECT h.hand_id, r.player FROM hands h JOIN results r USING (site, hand_id) WHERE h.allin_ev = 'exact' "
            "AND r.ev_net <> r.net * 1000 ORDER BY 1, 2 LIMIT 1").fetchone()
    held = HeldStore(Database(db))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"}, token="t0ken")) as client:
            page = client.get(f"/hand/pokerstars/{hand_id}").text
            assert 'id="allin-equity"' in page and "All-in EV net" in page
            profile = client.get(f"/player?player={player}").text
            assert "EV net" in profile and "Luck" in profile
            graph = client.get(f"/graph?player={player}").text
            assert "All-in EV" in graph and "line-ev" in graph
    finally:
        held.close()
