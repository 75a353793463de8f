"""`hhtool stats`: each statistic on hands written to exercise it, with exact counts and opportunities."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.ingest.loader import import_file
from hhtool.model import Hand
from hhtool.reports.stats import RATES, Breakdown, output_keys, player_stats
from hhtool.store import Store
from hhtool.store.filters import Game, HandFilter, parse_stakes
from hhtool.store.player_facts import evaluate_cards, player_hand_facts
from tests.inputs import REPO, copy_store
from tests.stats_hands import (
    ALL_HANDS,
    CBETS_AND_SPLIT,
    FOLD_TO_THREE_BET,
    FOUR_BET,
    HEADS_UP_NO_LOW,
    LIMP_AND_HI_LO_SPLIT,
    QUARTERED,
    RESTEAL_AND_CHECK_RAISE,
    STEAL_BY_DOOR,
    load,
    parse,
)
from tests.test_site_pokerstars import ALLIN_SIDE_POT

STATS_DOC = REPO / "docs" / "stats.md"
runner = CliRunner()
Facts = dict[tuple[str, str], dict[str, Any]]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, stats_hands_store: Path) -> Store:
    return Store(str(copy_store(stats_hands_store, tmp_path_factory.mktemp("hands") / "stats.duckdb")))


@pytest.fixture(scope="module")
def facts(store: Store) -> Facts:
    frame = player_hand_facts(store, HandFilter())
    return {(row["hand_id"], row["player"]): row for row in frame.iter_rows(named=True)}


def stat(facts: Facts, text: str, player: str, name: str) -> tuple[int, int]:
    """(count, opportunities) of one statistic for one player in one hand."""
    row = facts[(parse(text).hand_id, player)]
    return row[f"{name}__n"], row[f"{name}__o"]


def per_player(store: Store, **filter_fields: Any) -> dict[str, dict[str, Any]]:
    frame = player_stats(store, HandFilter(**filter_fields))
    return {row["player"]: row for row in frame.iter_rows(named=True)}


# ------------------------------------------------------------------ money


def test_net_won_per_player_and_hand_is_what_the_history_says(facts: Facts) -> None:
    for text in ALL_HANDS:
        hand = parse(text)
        for player in hand.players:
            assert facts[(hand.hand_id, player)]["net"] == hand.net_won(player), (hand.hand_id, player)
    # worked by hand: Bob's re-steal and check-raise win 36 of a 37 pot he put 17 into
    assert facts[(parse(RESTEAL_AND_CHECK_RAISE).hand_id, "Bob")]["net"] == 19


def test_totals_big_bets_and_showdown_split(store: Store) -> None:
    rows = per_player(store)
    nets = {player: 0 for player in rows}
    for text in ALL_HANDS:
        hand = parse(text)
        for player in hand.players:
            nets[player] += hand.net_won(player)
    assert {player: row["net_won"] for player, row in rows.items()} == nets
    bob = rows["Bob"]  # showdowns: hands 3 (+15), 5 (-1), 8 (+6)
    assert (bob["net_won_showdown"], bob["net_won_non_showdown"]) == (20, bob["net_won"] - 20)
    assert bob["hands"] == 7 and bob["bb_per_100_hands"] == 7
    assert bob["bb_per_100"] == pytest.approx(100 * bob["net_won"] / 8 / 7, abs=1e-3)
    assert all(row["currency"] == "USD" and row["unit"] == 100 for row in rows.values())


def test_rake_goes_to_the_winners_pro_rata_and_adds_up(store: Store, facts: Facts) -> None:
    split = parse(LIMP_AND_HI_LO_SPLIT)  # rake 4 on 48 + 47: 2.02 and 1.98 round to 2 and 2
    assert (stat_rake(facts, split, "Bob"), stat_rake(facts, split, "Ann"), stat_rake(facts, split, "Cat")) == (2, 2, 0)
    chopped = parse(CBETS_AND_SPLIT)  # rake 3 on 31 + 30: the odd unit to the larger remainder
    assert (stat_rake(facts, chopped, "Bob"), stat_rake(facts, chopped, "Cat")) == (2, 1)
    total_rake = sum(parse(text).rake or 0 for text in ALL_HANDS)
    assert sum(row["rake_paid"] for row in per_player(store).values()) == total_rake


def stat_rake(facts: Facts, hand: Hand, player: str) -> int:
    return int(facts[(hand.hand_id, player)]["rake_paid"])


# ------------------------------------------------------------------ 3rd street


def test_vpip_counts_calls_and_completes_not_the_bring_in(facts: Facts) -> None:
    assert stat(facts, STEAL_BY_DOOR, "Dan", "vpip") == (1, 1)
    assert stat(facts, STEAL_BY_DOOR, "Bob", "vpip") == (0, 1)  # posted the bring-in, then folded
    assert stat(facts, CBETS_AND_SPLIT, "Ann", "vpip") == (1, 1)  # the bring-in calling the completion
    assert stat(facts, QUARTERED, "Eve", "vpip") == (1, 1)  # calling the bring-in
    # everyone called the bring-in: it had no decision, so no opportunity
    assert stat(facts, QUARTERED, "Cat", "vpip") == (0, 0)


def test_raise_first_in_limp_and_bring_in_completes(facts: Facts) -> None:
    assert stat(facts, STEAL_BY_DOOR, "Dan", "complete_first_in") == (1, 1)
    assert stat(facts, STEAL_BY_DOOR, "Cat", "complete_first_in") == (0, 1)  # folded first in
    assert stat(facts, STEAL_BY_DOOR, "Eve", "complete_first_in") == (0, 0)  # Dan was in already
    assert stat(facts, QUARTERED, "Eve", "limp") == (1, 1)
    assert stat(facts, QUARTERED, "Bob", "limp") == (0, 0)  # Eve had limped: not first in
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Bob", "bring_in_complete") == (1, 1)  # opened with a full bet
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Cat", "bring_in_complete") == (0, 0)
    assert stat(facts, STEAL_BY_DOOR, "Bob", "bring_in_complete") == (0, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "raise_3rd") == (1, 1)
    assert stat(facts, STEAL_BY_DOOR, "Eve", "raise_3rd") == (0, 1)


def test_steals_by_door_card_and_by_position(facts: Facts) -> None:
    # Dan's King beats every upcard left to act (Eve 7, Ann 9, Bob 2); he is not in the last two seats
    assert stat(facts, STEAL_BY_DOOR, "Dan", "steal_door") == (1, 1)
    assert stat(facts, STEAL_BY_DOOR, "Dan", "steal_position") == (0, 0)
    assert stat(facts, STEAL_BY_DOOR, "Cat", "steal_door") == (0, 0)  # a 5 with a King behind
    # Cat's Queen was the best upcard behind her when she folded first in: a missed steal
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Cat", "steal_door") == (0, 1)
    # Eve: best upcard behind (Ann 3, Bob 2) and second to last before the bring-in
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "steal_door") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "steal_position") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "steal") == (1, 1)
    assert stat(facts, QUARTERED, "Eve", "steal") == (0, 1)  # she limped instead
    # a Jack is not higher than the other Jack behind Bob
    assert stat(facts, CBETS_AND_SPLIT, "Bob", "steal_door") == (0, 0)
    assert stat(facts, CBETS_AND_SPLIT, "Bob", "complete_first_in") == (1, 1)


def test_steal_success_and_the_bring_ins_answer(facts: Facts) -> None:
    assert stat(facts, STEAL_BY_DOOR, "Dan", "steal_success") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "steal_success") == (0, 1)
    assert stat(facts, HEADS_UP_NO_LOW, "Ann", "steal_success") == (0, 1)
    assert stat(facts, STEAL_BY_DOOR, "Bob", "bring_in_fold_to_steal") == (1, 1)
    assert stat(facts, STEAL_BY_DOOR, "Bob", "bring_in_resteal") == (0, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "bring_in_resteal") == (1, 1)
    assert stat(facts, HEADS_UP_NO_LOW, "Dan", "bring_in_fold_to_steal") == (0, 1)  # called
    assert stat(facts, FOUR_BET, "Dan", "bring_in_fold_to_steal") == (0, 0)  # a raise came in between


def test_fold_to_completion_and_the_raising_ladder(facts: Facts) -> None:
    assert stat(facts, STEAL_BY_DOOR, "Eve", "fold_to_complete") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "fold_to_complete") == (0, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "two_bet_3rd") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "three_bet_3rd") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "four_bet_3rd") == (0, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "fold_to_three_bet_3rd") == (0, 1)  # called it
    assert stat(facts, FOUR_BET, "Cat", "three_bet_3rd") == (1, 1)
    assert stat(facts, FOUR_BET, "Ann", "four_bet_3rd") == (1, 1)
    assert stat(facts, FOUR_BET, "Dan", "four_bet_3rd") == (0, 1)
    assert stat(facts, FOUR_BET, "Bob", "fold_to_three_bet_3rd") == (0, 0)  # faced the 4-bet, not the 3-bet
    assert stat(facts, FOLD_TO_THREE_BET, "Bob", "fold_to_three_bet_3rd") == (1, 1)
    assert stat(facts, FOLD_TO_THREE_BET, "Dan", "three_bet_3rd") == (0, 1)


# ------------------------------------------------------------------ later streets


def test_saw_streets(facts: Facts) -> None:
    seen = [stat(facts, CBETS_AND_SPLIT, "Dan", f"saw_{street}")[0] for street in (4, 5, 6, 7)]
    assert seen == [1, 1, 0, 0]  # folded on 5th
    assert [stat(facts, CBETS_AND_SPLIT, "Ann", f"saw_{street}") for street in (4, 5)] == [(1, 1), (0, 1)]
    assert stat(facts, STEAL_BY_DOOR, "Dan", "saw_4") == (0, 1)  # the hand ended on 3rd


def test_aggression_frequency_counts_actions(facts: Facts) -> None:
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Ann", "aggression_5") == (1, 2)  # bet, then call
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "aggression_3") == (2, 2)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "aggression_3") == (1, 2)  # the bring-in is forced
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "aggression_4") == (1, 2)  # check, raise


def test_continuation_bets_and_folds_to_them(facts: Facts) -> None:
    assert [stat(facts, CBETS_AND_SPLIT, "Bob", f"cbet_{s}") for s in (4, 5, 6, 7)] == [(1, 1), (1, 1), (1, 1), (0, 1)]
    assert stat(facts, CBETS_AND_SPLIT, "Ann", "fold_to_cbet_4") == (1, 1)
    assert stat(facts, CBETS_AND_SPLIT, "Dan", "fold_to_cbet_5") == (1, 1)
    assert stat(facts, CBETS_AND_SPLIT, "Cat", "fold_to_cbet_5") == (0, 1)
    # Bob was 4th street's last aggressor, but Ann bet 5th before him: no chance to continue
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Bob", "cbet_5") == (0, 0)
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Cat", "cbet_6") == (1, 1)
    assert stat(facts, HEADS_UP_NO_LOW, "Dan", "cbet_7") == (0, 1)


def test_check_raise_and_folds_per_street(facts: Facts) -> None:
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "check_raise_4") == (1, 1)
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Cat", "check_raise_5") == (1, 1)
    assert stat(facts, CBETS_AND_SPLIT, "Dan", "check_raise_5") == (0, 1)
    assert stat(facts, QUARTERED, "Bob", "check_raise_4") == (0, 0)  # checked around: never faced a bet
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "fold_4") == (1, 1)
    assert stat(facts, CBETS_AND_SPLIT, "Dan", "fold_5") == (1, 1)
    assert stat(facts, CBETS_AND_SPLIT, "Cat", "fold_5") == (0, 1)
    assert stat(facts, STEAL_BY_DOOR, "Cat", "fold_3") == (1, 1)
    assert stat(facts, QUARTERED, "Bob", "fold_5") == (0, 0)  # nothing to call


# ------------------------------------------------------------------ showdown and halves


def test_went_to_showdown_and_won(facts: Facts) -> None:
    assert stat(facts, CBETS_AND_SPLIT, "Dan", "wtsd") == (0, 1)
    assert stat(facts, CBETS_AND_SPLIT, "Cat", "wtsd") == (1, 1)
    assert stat(facts, STEAL_BY_DOOR, "Dan", "wtsd") == (0, 0)  # never saw 4th
    assert stat(facts, HEADS_UP_NO_LOW, "Ann", "wsd") == (0, 1)
    assert stat(facts, QUARTERED, "Eve", "wsd") == (1, 1)  # a quarter is money won
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Bob", "won_saw_4th") == (1, 1)
    assert stat(facts, RESTEAL_AND_CHECK_RAISE, "Eve", "won_saw_4th") == (0, 1)


def outcome(facts: Facts, text: str, player: str) -> str:
    names = ("scoop", "high_only", "low_only", "split", "quartered")
    won = [name for name in names if stat(facts, text, player, name) == (1, 1)]
    assert all(stat(facts, text, player, name)[1] == 1 for name in names)
    return won[0] if won else "none"


def test_halves_from_cards_when_unlabelled_and_from_labels_when_given(facts: Facts) -> None:
    assert outcome(facts, LIMP_AND_HI_LO_SPLIT, "Bob") == "high_only"
    assert outcome(facts, LIMP_AND_HI_LO_SPLIT, "Ann") == "low_only"
    assert outcome(facts, LIMP_AND_HI_LO_SPLIT, "Cat") == "none"
    assert [outcome(facts, QUARTERED, p) for p in ("Cat", "Bob", "Eve")] == ["high_only", "quartered", "quartered"]
    assert outcome(facts, HEADS_UP_NO_LOW, "Dan") == "scoop"
    assert [outcome(facts, CBETS_AND_SPLIT, p) for p in ("Bob", "Cat")] == ["split", "split"]
    cards, labels = (facts[(parse(t).hand_id, "Bob")] for t in (QUARTERED, CBETS_AND_SPLIT))
    assert (cards["halves_by_cards"], cards["halves_by_label"]) == (1, 0)
    assert (labels["halves_by_cards"], labels["halves_by_label"]) == (0, 1)


def test_low_qualified_from_site_text_or_the_evaluator(store: Store, facts: Facts, tmp_path: Path) -> None:
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Ann", "low_qualified") == (1, 1)
    assert stat(facts, LIMP_AND_HI_LO_SPLIT, "Cat", "low_qualified") == (0, 1)
    assert stat(facts, QUARTERED, "Eve", "low_qualified") == (1, 1)
    # without the site's LO: text the evaluator still finds Bob's 7-low in his shown cards
    silent = QUARTERED.replace("#9005", "#9105").replace("; LO: 7,6,4,3,2)", ")")
    # and a winner who mucks leaves the halves unknown
    mucked = LIMP_AND_HI_LO_SPLIT.replace("#9003", "#9103").replace(
        "Bob: shows [Kc Kh 3d Qs Jd 3h 5d] (HI: two pair, Kings and Threes)", "Bob: mucks hand")
    other = Store(":memory:")
    load(other, tmp_path, silent, mucked)
    rows = {(r["hand_id"], r["player"]): r for r in player_hand_facts(other, HandFilter()).iter_rows(named=True)}
    assert (rows[("9105", "Bob")]["low_qualified__n"], rows[("9105", "Bob")]["low_qualified__o"]) == (1, 1)
    assert rows[("9105", "Bob")]["quartered__n"] == 1
    assert rows[("9103", "Bob")]["halves_unknown"] == 1 and rows[("9103", "Bob")]["scoop__o"] == 0
    assert rows[("9103", "Bob")]["low_qualified__o"] == 0  # cards unknown, no text


def test_side_pot_hand_is_judged_on_the_main_pot(tmp_path: Path) -> None:
    other = Store(":memory:")
    load(other, tmp_path, ALLIN_SIDE_POT)
    rows = {r["player"]: r for r in player_hand_facts(other, HandFilter()).iter_rows(named=True)}
    assert (rows["Big"]["high_only__n"], rows["Bigger"]["low_only__n"], rows["Shorty"]["wsd__n"]) == (1, 1, 0)
    assert (rows["Shorty"]["wtsd__n"], rows["Shorty"]["net"]) == (1, -600)


def test_evaluate_cards_refuses_what_it_cannot_judge() -> None:
    assert evaluate_cards("As 2d 3c 4h 5s Kd") is not None
    assert evaluate_cards("As 2d 3c 4h") is None
    assert evaluate_cards("As As 3c 4h 5s") is None  # duplicate card


# ------------------------------------------------------------------ aggregation, filters, output


def test_rates_are_count_over_opportunities_and_null_without_any(store: Store, facts: Facts) -> None:
    rows = per_player(store)
    for player, row in rows.items():
        mine = [values for (_, who), values in facts.items() if who == player]
        for rate in RATES:
            count = sum(values[f"{rate.fact}__n"] for values in mine)
            chances = sum(values[f"{rate.fact}__o"] for values in mine)
            assert (row[f"{rate.key}_count"], row[f"{rate.key}_opportunities"]) == (count, chances), (player, rate.key)
            assert row[rate.key] == (None if chances == 0 else pytest.approx(count / chances)), (player, rate.key)
            assert 0 <= count <= chances or rate.key.startswith("aggression"), (player, rate.key)
    assert rows["Dan"]["steal_door_count"] == 1 and rows["Ann"]["steal_door_count"] == 3


def test_player_filter_keeps_the_context_of_the_other_players(store: Store) -> None:
    everyone = per_player(store)
    only = per_player(store, players=("Eve", "Bob"))
    assert set(only) == {"Eve", "Bob"}
    assert only["Eve"] == everyone["Eve"] and only["Bob"] == everyone["Bob"]


@pytest.mark.slow
def test_hand_filters(store: Store, tmp_path: Path) -> None:
    assert per_player(store, date_from=parse_day("2020-02-01"))["Ann"]["hands"] == 3
    assert per_player(store, date_to=parse_day("2020-01-06"))["Ann"]["hands"] == 2
    assert per_player(store, table_size=8)["Ann"]["hands"] == 7
    assert per_player(store, table_size=6) == {}
    assert per_player(store, game=Game.tournament) == {} and per_player(store, game=Game.cash)["Ann"]["hands"] == 7
    assert per_player(store, sites=("winamax",)) == {}
    mixed = Store(":memory:")
    load(mixed, tmp_path, STEAL_BY_DOOR, ALLIN_SIDE_POT)
    assert set(per_player(mixed, stakes=parse_stakes("$10/$20"))) == {"Shorty", "Big", "Bigger"}
    assert set(per_player(mixed, stakes=parse_stakes("0.04/0.08"))) == {"Ann", "Bob", "Cat", "Dan", "Eve"}
    assert per_player(mixed, stakes=parse_stakes("0.04/0.10")) == {}
    frame = player_stats(store, HandFilter(), min_hands=7)  # Ann, Bob and Cat 7 hands each, Dan 6, Eve 3
    assert sorted(frame["player"].to_list()) == ["Ann", "Bob", "Cat"]


def parse_day(text: str) -> Any:
    from datetime import date

    return date.fromisoformat(text)


@pytest.mark.slow
def test_breakdowns_add_up_to_the_totals(store: Store) -> None:
    totals = per_player(store)
    for by, column in ((Breakdown.month, "month"), (Breakdown.door_card, "door_card"), (Breakdown.stakes, "stakes")):
        frame = player_stats(store, HandFilter(), by=by)
        assert column in frame.columns
        for player, row in totals.items():
            mine = frame.filter(frame["player"] == player)
            assert mine["hands"].sum() == row["hands"] and mine["net_won"].sum() == row["net_won"], (by, player)
            assert mine["vpip_count"].sum() == row["vpip_count"], (by, player)
    months = player_stats(store, HandFilter(players=("Ann",)), by=Breakdown.month)
    assert months.select("month", "hands").rows() == [("2020-01", 4), ("2020-02", 3)]
    doors = player_stats(store, HandFilter(players=("Ann",)), by=Breakdown.door_card)
    assert doors["door_card"].to_list() == ["K", "Q", "9", "7", "3", "2"]  # rank order
    assert doors.filter(doors["door_card"] == "Q")["net_won"].to_list() == [25 + 13]


def test_by_street_rows(store: Store) -> None:
    frame = player_stats(store, HandFilter(players=("Bob",)), by=Breakdown.street)
    wide = per_player(store)["Bob"]
    assert frame["street"].to_list() == ["3rd", "4th", "5th", "6th", "7th"]
    fourth = frame.row(1, named=True)
    assert (fourth["cbet_count"], fourth["cbet_opportunities"]) == (wide["cbet_4th_count"], wide["cbet_4th_opportunities"])
    assert fourth["saw_count"] == wide["saw_4th_count"] and frame.row(0, named=True)["cbet"] is None


def run_cli(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.slow
def test_cli_json_keys_units_and_formats(store: Store, tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    with Store(str(db)) as on_disk:
        load(on_disk, tmp_path, *ALL_HANDS)
    rows = json.loads(run_cli("stats", "--db", str(db), "--format", "json", "--player", "Dan", "--player", "Ann").stdout)
    assert [row["player"] for row in rows] == ["Ann", "Dan"]  # most hands first
    assert all(list(row) == output_keys() for row in rows)
    dan = rows[1]
    assert isinstance(dan["net_won"], int) and dan["currency"] == "USD"
    assert dan["steal_door"] == 1.0 and dan["bring_in_resteal"] == 0.0 and dan["bring_in_resteal_opportunities"] == 1
    assert dan["limp"] == 0.0 and dan["limp_opportunities"] == 2  # completed, then folded, first in
    assert dan["steal_position"] is None and dan["steal_position_opportunities"] == 0
    csv_file = tmp_path / "s.csv"
    run_cli("stats", "--db", str(db), "--format", "csv", "--out", str(csv_file), "--by", "door-card")
    assert csv_file.read_text().splitlines()[0].split(",") == output_keys(Breakdown.door_card)
    parquet = tmp_path / "s.parquet"
    run_cli("stats", "--db", str(db), "--format", "parquet", "--out", str(parquet), "--min-hands", "6")
    import polars as pl

    assert sorted(pl.read_parquet(parquet)["player"].to_list()) == ["Ann", "Bob", "Cat", "Dan"]
    table = run_cli("stats", "--db", str(db), "--player", "Dan", "--stakes", "0.04/0.08").stdout
    assert "Dan" in table and "vpip" in table
    bad = runner.invoke(app, ["stats", "--db", str(db), "--stakes", "cheap"])
    assert bad.exit_code == 2


def test_every_key_is_defined_in_docs() -> None:
    text = STATS_DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z0-9_]+)`", text))
    keys = set(output_keys()) | {"month", "door_card", "stakes", "street", "saw", "aggression", "fold", "cbet",
                                  "fold_to_cbet", "check_raise"}
    stems = {key.removesuffix("_count").removesuffix("_opportunities") for key in keys}
    missing = sorted(stem for stem in stems if stem not in documented)
    assert not missing, f"not defined in docs/stats.md: {missing}"


# ------------------------------------------------------------------ the real corpus against fpdb


def fpdb_rows(path: Path) -> dict[str, dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    text = text[text.index("{"):]
    return ast.literal_eval(re.sub(r"\bu'", "'", text))


def test_cardtest_hand_matches_fpdb(corpus: Path) -> None:
    folder = corpus / "PokerStars"
    store = Store(":memory:")
    for path in sorted(folder.glob("*.txt")):
        import_file(store, path, path.read_bytes(), store_facts=False)
    expected = fpdb_rows(folder / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt.hp")
    hand = parse_text_file(folder / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt")
    frame = player_hand_facts(store, HandFilter())
    rows = {r["player"]: r for r in frame.filter(frame["hand_id"] == hand.hand_id).iter_rows(named=True)}
    assert set(rows) == set(expected)
    for player, fpdb in expected.items():
        ours = rows[player]
        assert ours["net"] == fpdb["totalProfit"], player
        assert ours["collected"] == fpdb["winnings"], player
        assert ours["rake_paid"] == fpdb["rake"], player
        assert ours["vpip__n"] == int(fpdb["street0VPI"]), player
        assert ours["went_sd"] == int(fpdb["sawShowdown"]), player
        assert ours["wsd__n"] == int(fpdb["wonAtSD"] > 0), player
        assert ours["won_saw_4th__n"] == int(fpdb["wonWhenSeenStreet1"] > 0), player
        for street in (4, 5, 6, 7):
            assert ours[f"saw_{street}__n"] == int(fpdb[f"street{street - 3}Seen"]), (player, street)
            assert (ours[f"aggression_{street}__n"] > 0) == fpdb[f"street{street - 3}Aggr"], (player, street)
        assert ours["raise_3rd__n"] == int(fpdb["street0Aggr"]), player


def parse_text_file(path: Path) -> Hand:
    return parse(path.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_every_corpus_hand_balances_and_rates_stay_fractions(corpus: Path) -> None:
    store = Store(":memory:")
    for path in sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() in (".txt", ".xml")):
        import_file(store, path, path.read_bytes(), store_facts=False)
    frame = player_hand_facts(store, HandFilter())
    assert frame["site"].n_unique() >= 5
    money = store.frame("SELECT site, hand_id, sum(contributed) AS put_in, sum(collected) AS paid FROM results GROUP BY ALL")
    hands = {(r["site"], r["hand_id"]): r for r in money.iter_rows(named=True)}
    per_hand: dict[tuple[str, str], list[int]] = {}
    for row in frame.iter_rows(named=True):
        sums = per_hand.setdefault((row["site"], row["hand_id"]), [0, 0])
        sums[0] += row["net"]
        sums[1] += row["rake_paid"]
    for key, (net, rake) in per_hand.items():
        taken = hands[key]["put_in"] - hands[key]["paid"]
        assert net == -taken and (rake == taken or hands[key]["paid"] == 0), key
    for row in player_stats(store, HandFilter()).iter_rows(named=True):
        for rate in RATES:
            assert row[rate.key] is None or 0 <= row[rate.key] <= 1, (row["player"], rate.key)
