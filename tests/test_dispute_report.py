"""The dispute report (issue #15): its verdict sentence names the right player, pot, half and
amount; text fits 80 columns; JSON has stable keys with money as integers; every rule title is the
rules document's; golden files for a split pot with a side pot (never rewritten here); the CLI's
--format, --out, --site and --report."""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from hhtool.cli import app
from hhtool.replay import profile_for
from hhtool.reports.dispute import build_report, render
from hhtool.reports.dispute.rules import RULE_TITLES
from tests.dispute_helpers import (
    FILE_MARK,
    GOLDEN,
    explain,
    imported,
    masked_json,
    misawarded,
    runner,
    side_pot_hand,
)

RULES_DOC = Path(__file__).resolve().parents[2] / "shared" / "docs" / "stud8-rules.md"
HOSTILE = "<script>alert(1)</script>"


def parsed(text: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The hand model of a history, through the CLI's own import and store."""
    from hhtool.store import Store
    from hhtool.store.load import load_hands

    db, _ = imported(tmp_path, text)
    with Store(db, read_only=True) as store:
        [hand] = list(load_hands(store, "TRUE", []))
    return hand


def test_every_rule_title_is_the_rules_documents() -> None:
    if not RULES_DOC.exists():
        pytest.skip(f"{RULES_DOC} is not present")
    headings = set(re.findall(r"^## (R\d+) (.+)$", RULES_DOC.read_text(), re.M))
    assert {(rule, title) for rule, title in RULE_TITLES.items()} <= headings


def test_golden_text_of_a_split_pot_with_a_side_pot(tmp_path: Path) -> None:
    db, path = imported(tmp_path, side_pot_hand())
    text = explain(db, "200").replace(str(path), FILE_MARK)
    assert text == (GOLDEN / "dispute_split_side_pot.txt").read_text()
    assert explain(db, "200", "--format", "text") == explain(db, "200")


def test_golden_json_of_a_split_pot_with_a_side_pot(tmp_path: Path) -> None:
    db, path = imported(tmp_path, side_pot_hand())
    data = masked_json(explain(db, "200", "--format", "json"), path)
    assert data == json.loads((GOLDEN / "dispute_split_side_pot.json").read_text())
    main, side = data["pots"]
    assert (main["amount"]["amount"], side["amount"]["amount"]) == (1800, 3000)
    assert [(h["name"], h["winners"][0]["player"], h["amount"]["amount"]) for h in side["halves"]] == [
        ("high", "Big", 1500), ("low", "Bigger", 1500)]
    assert main["eligible"] == ["Shorty", "Big", "Bigger"] and side["eligible"] == ["Big", "Bigger"]


def test_json_keys_are_documented_and_money_is_integers(tmp_path: Path) -> None:
    db, path = imported(tmp_path, side_pot_hand())
    data = masked_json(explain(db, "200", "--format", "json"), path)
    documented = (Path(__file__).resolve().parents[1] / "docs" / "dispute-report.md").read_text()
    for key in data:
        assert f"`{key}`" in documented, key

    def moneys(value: object) -> list[dict[str, object]]:
        if isinstance(value, dict):
            found = [value] if set(value) == {"amount", "text"} else []
            return found + [m for item in value.values() for m in moneys(item)]
        if isinstance(value, list):
            return [m for item in value for m in moneys(item)]
        return []

    found = moneys(data)
    assert len(found) > 50 and all(isinstance(m["amount"], int) and isinstance(m["text"], str) for m in found)


def test_a_misawarded_high_half_names_player_pot_half_and_amount(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, misawarded(side_pot_hand()))
    text = explain(db, "200")
    first = " ".join(text.split("\n\n")[0].split())
    assert first.startswith("The site paid the $9.00 high half of the main pot to Shorty; by the rules it belongs to "
                            "Big, whose three of a kind, Kings, beats Shorty's high card Queen.")
    assert "Verdict: violation." in text
    data = json.loads(explain(db, "200", "--format", "json"))
    assert data["misawarded"] == {"amount": 900, "text": "$9.00"}
    differences = {row["player"]: row["difference"] for row in data["awards"]}
    assert differences["Shorty"] == {"amount": 900, "text": "+$9.00"}
    assert differences["Big"] == {"amount": -900, "text": "-$9.00"}
    assert "← site paid" not in text and "[POT_AWARD]" not in text and "POT_AWARD" not in text


def test_a_misawarded_low_half_says_the_other_has_no_low(tmp_path: Path) -> None:
    hand = side_pot_hand().replace("Bigger collected $15 from side pot", "Big collected $15 from side pot")
    db, _ = imported(tmp_path, hand)
    first = " ".join(explain(db, "200").split("\n\n")[0].split())
    assert first.startswith("The site paid the $15.00 low half of side pot 1 to Big; by the rules it belongs to "
                            "Bigger, whose low 6,5,4,3,A qualifies, while Big has no qualifying low")


def test_the_legal_hand_says_the_award_is_correct(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    assert explain(db, "200").startswith("The site's award is correct under the rules of PokerStars")


def test_without_per_pot_awards_the_sentence_names_the_player_and_half(tmp_path: Path) -> None:
    hand = parsed(misawarded(side_pot_hand()), tmp_path)
    no_pots = replace(hand, awards=tuple(replace(award, pot=None) for award in hand.awards))
    report = build_report(no_pots, profile_for(no_pots))
    assert report.headline[0].startswith("The site paid $9.00 to Shorty that by the rules belongs to Big (high half of "
                                         "the main pot), whose three of a kind, Kings, beats Shorty's high card Queen.")


def test_every_finding_names_its_rule_in_words_and_its_line(tmp_path: Path) -> None:
    db, path = imported(tmp_path, misawarded(side_pot_hand()))
    data = json.loads(explain(db, "200", "--format", "json"))
    violations = [f for f in data["findings"] if f["kind"] == "violation"]
    assert violations and all(f["cited"]["file"] == str(path) and f["cited"]["line"] > 0 for f in violations)
    award = next(f for f in violations if f["topic"] == "the award of each pot")
    assert {"rule": "R14", "title": "Pot splitting and odd chips"} in award["rules"]
    assert award["parameters"]["odd_unit_hi_lo"] == "high"
    text = explain(db, "200")
    assert "Rule: Side pots (rule R12), Showdown hands (rule R13) and Pot splitting and" in text


def test_the_hand_street_by_street_with_pot_and_seven_cards(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    data = json.loads(explain(db, "200", "--format", "json"))
    assert [s["street"] for s in data["streets"]] == [3, 4, 5, 6, 7]
    last = data["streets"][0]["actions"][-1]
    assert last["words"] == "calls $2.00 and is all-in" and last["pot_after"]["amount"] == 2800
    assert data["streets"][-1]["pot_after"]["text"] == "$48.00"
    cards = {p["player"]: p["cards"] for p in data["players"]}
    assert cards["Bigger"] == ["Ah", "6d", "Qs", "4d", "5d", "Ac", "3d"]
    contender = data["pots"][0]["contenders"][2]
    assert contender["seven"] == cards["Bigger"] and contender["low"]["cards"] == ["6d", "5d", "4d", "3d", "Ah"]


def test_text_fits_80_columns_even_with_long_and_hostile_names() -> None:
    long_name = "Z" * 60
    hand = misawarded(side_pot_hand()).replace("Shorty", HOSTILE).replace("Bigger", long_name)
    # (a short folder: the report names the history's file on a line of its own, and pytest's own folders
    # under xdist, ".../popen-gw0/test_text_fits_80_columns_even0/h.txt", are longer than the names tried here)
    with tempfile.TemporaryDirectory(prefix="h", dir="/tmp") as folder:
        db, _ = imported(Path(folder), hand)
        text = explain(db, "200")
    assert HOSTILE in text and long_name in text
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long


def test_html_escapes_every_player_name(tmp_path: Path) -> None:
    hand = misawarded(side_pot_hand()).replace("Shorty", HOSTILE)
    db, _ = imported(tmp_path, hand)
    out = tmp_path / "r.html"
    assert explain(db, "200", "--format", "html", "--out", str(out)) == f"wrote {out}\n"  # (#25: every --out says so)
    page = out.read_text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script") == 2  # the replayer's data and its code, nothing else
    assert "http://" not in page and "https://" not in page and "@import" not in page and "url(" not in page


def test_explain_refuses_when_two_sites_share_the_id(tmp_path: Path) -> None:
    from hhtool.store import Store

    db, _ = imported(tmp_path, side_pot_hand())
    from hhtool.store import spec

    with Store(db) as store:  # the same hand id on a second site: every row of the hand copied under it
        tables = [name for (name,) in store.run(
            "SELECT table_name FROM information_schema.columns WHERE column_name = 'hand_id' AND table_name IN "
            "(SELECT table_name FROM information_schema.columns WHERE column_name = 'site') AND table_name IN "
            "(SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema = 'main')")]
        (top,) = store.run("SELECT max(hk) + 1 FROM hands")[0]  # the copy's store key: the next free one
        for name in tables:
            moved = ", hk + ? AS hk" if name == "hands" else ""
            store.run(f"INSERT INTO {name} SELECT * REPLACE ('fulltilt' AS site{moved}) FROM {name} WHERE site = 'pokerstars'",
                      [top] if moved else [])
        for table in spec.TABLES:  # the per-hand rows, by the hand's key
            if table.keyed:
                store.run(f"INSERT INTO {table.stored} SELECT * REPLACE (hk + ? AS hk) FROM {table.stored} "
                          "WHERE hk IN (SELECT hk FROM hands WHERE site = 'pokerstars')", [top])
    refused = runner.invoke(app, ["audit", "--db", db, "--explain", "200"])
    assert refused.exit_code == 2 and "pokerstars" in refused.output and "fulltilt" in refused.output
    assert "--site" in refused.output
    chosen = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--site", "fulltilt"])
    assert chosen.exit_code == 0 and "Hand Full Tilt Poker #200" in chosen.output


def test_explain_usage_errors(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, side_pot_hand())
    assert "no stored hand" in explain(db, "999", code=2)
    wrong = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--format", "csv"])
    assert wrong.exit_code == 2 and "text, json or html" in wrong.output
    listing = runner.invoke(app, ["audit", "--db", db, "--format", "html"])  # the listing has its own formats
    assert listing.exit_code == 2 and "table, jsonl or csv" in listing.output
    # a missing folder is made, as for every --out (#14); one that cannot be made is one line, exit 2
    made = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--out", str(tmp_path / "no" / "r.txt")])
    assert made.exit_code == 0 and (tmp_path / "no" / "r.txt").read_text(encoding="utf-8"), made.output
    (tmp_path / "blocker").write_text("", encoding="utf-8")
    nowhere = runner.invoke(app, ["audit", "--db", db, "--explain", "200", "--out", str(tmp_path / "blocker" / "r.txt")])
    assert nowhere.exit_code == 2 and "cannot make the folder" in nowhere.output and "Traceback" not in nowhere.output


def test_report_dir_writes_a_page_per_violation_and_a_sorted_index(tmp_path: Path) -> None:
    legal = side_pot_hand().replace("Hand #200", "Hand #201")
    low = side_pot_hand().replace("Hand #200", "Hand #202").replace(
        "Bigger collected $15 from side pot", "Big collected $15 from side pot")
    db, _ = imported(tmp_path, "\n\n\n".join((misawarded(side_pot_hand()), legal, low)) + "\n")
    out = tmp_path / "desk"
    result = runner.invoke(app, ["audit", "--db", db, "--report", str(out)])
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "pokerstars-200.html", "pokerstars-202.html"]
    index = (out / "index.html").read_text()
    assert index.index("pokerstars-202.html") < index.index("pokerstars-200.html")  # $15.00 before $9.00
    assert 'data-value="1500"' in index and 'data-value="900"' in index


def test_render_formats_agree_on_the_verdict(tmp_path: Path) -> None:
    hand = parsed(misawarded(side_pot_hand()), tmp_path)
    report = build_report(hand, profile_for(hand))
    text, data, page = (render(report, f) for f in ("text", "json", "html"))
    sentence = report.headline[0]
    assert sentence.split(";")[0] in " ".join(text.split()) and json.loads(data)["headline"][0] == sentence
    assert sentence.split(";")[0] in page


def test_paid_beyond_the_pot_names_the_player_and_the_excess(tmp_path: Path) -> None:
    hand = side_pot_hand().replace("Big collected $15 from side pot", "Big collected $16 from side pot")
    db, _ = imported(tmp_path, hand)
    first = " ".join(explain(db, "200").split("\n\n")[0].split())
    assert first == "The site paid Big $16.00 from side pot 1, $1.00 more than the rules award ($15.00)."


def test_golden_html_text_of_a_split_pot_with_a_side_pot(tmp_path: Path) -> None:
    """The page byte for byte (the browser test opens it and checks what it shows)."""
    db, path = imported(tmp_path, side_pot_hand())
    out = tmp_path / "r.html"
    explain(db, "200", "--format", "html", "--out", str(out))
    assert out.read_text().replace(str(path), FILE_MARK) == (GOLDEN / "dispute_split_side_pot.html").read_text()


def test_forced_bets_from_the_table_context_are_named(tmp_path: Path) -> None:
    one = side_pot_hand()
    two = one.replace("Hand #200", "Hand #201")
    short = one.replace("Hand #200", "Hand #202").replace("Big: posts the ante $1", "Big: posts the ante $0.50").replace(
        "Big: completes it to $10", "Big: completes it to $10.50")
    db, _ = imported(tmp_path, "\n\n\n".join((one, two, short)) + "\n")
    alone = explain(db, "200")
    assert "no table context is known" not in alone  # the store's judgement, not the replay's placeholder
    assert "ante $1.00: learnt from the other hands at the same table and stakes (table" in alone
    assert "2 other stored hands at table 'Side'; most of them carry $1.00" in " ".join(alone.split())
    data = json.loads(explain(db, "202", "--format", "json"))
    ante = next(f for f in data["findings"] if f["topic"] == "the antes")
    assert ante["kind"] == "violation" and ante["player"] == "Big" and ante["rules"] == [{"rule": "R2", "title": "Antes"}]


def test_hidden_cards_make_the_award_unverifiable_and_say_why(tmp_path: Path) -> None:
    hand = side_pot_hand().replace(
        "Bigger: shows [Ah 6d Qs 4d 5d Ac 3d] (HI: a pair of Aces; LO: 6,5,4,3,A)\n", "Bigger: doesn't show hand\n").replace(
        "Seat 6: Bigger showed [Ah 6d Qs 4d 5d Ac 3d] and won ($24) with HI: a pair of Aces; LO: 6,5,4,3,A",
        "Seat 6: Bigger collected ($24)")
    db, _ = imported(tmp_path, hand)
    text = explain(db, "200")
    first = " ".join(text.split("\n\n")[0].split())
    assert first.startswith("The award could not be verified: Bigger: cards not shown, so the main pot cannot be decided")
    assert "Verdict: unverifiable." in text and "Bigger: seven cards ?? ?? Qs 4d 5d Ac" in text
    assert "Award per player: the rules cannot decide every pot" in text
