"""Issue #33: one judgement of record per hand. For every hand of the samples, the corpus and 2,000
simulated hands (a fifth with one fault), the verdict, the findings, the assumptions and the
unverifiable reasons are the same in the store, `show --format json`, `audit --explain --format json`
(the desk's report and the player's copy) and the web hand page; only hidden cards leave a hand of
the samples or the corpus unverifiable; every injected fault is still caught and no clean simulated
hand gets a finding."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay.forced_bets import NO_SOURCE
from hhtool.replay.result import stored_verdict_sql
from hhtool.reports.dispute.customer import without_lines
from hhtool.service.stores import Database
from hhtool.store import Store
from hhtool.store.findings import CONFLICTED
from tests.inputs import SAMPLES, require_corpus

runner = CliRunner()
starlette_testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed (pip install httpx)")

#: the checks a hidden card decides (the bring-in's player and the order of play read upcards; the
#: award reads the hole cards): the only unverifiable checks left on real hands
HIDDEN_CARD_CHECKS = frozenset({"BRING_IN_PLAYER", "ACTION_ORDER", "SHOWDOWN", "POT_AWARD"})


@dataclass(frozen=True)
class Seen:
    """What one view says of a hand's judgement."""

    verdict: str
    violations: tuple[tuple[str, str], ...]  # (code or "", message), sorted
    unverifiable: tuple[str, ...]  # reasons, sorted
    assumptions: tuple[str, ...]  # words, sorted


def imported(folder: Path, *paths: Path) -> Path:
    db = folder / "views.duckdb"
    result = runner.invoke(app, ["import", *map(str, paths), "--db", str(db), "-q", "--jobs", "1"])
    assert result.exit_code in (0, 1), result.output
    return db


def stored(db: Path) -> dict[tuple[str, str], Seen]:
    """The judgement of record, read from the store's tables."""
    found: dict[tuple[str, str], Seen] = {}
    verdict = stored_verdict_sql("h.verdict", CONFLICTED, "not-replayed")
    with Store(str(db), read_only=True) as store:
        rows = store.run(f"SELECT h.site, h.hand_id, {verdict} FROM hands h")
        def per_hand(sql: str) -> dict[tuple[str, str], list[Any]]:
            out: dict[tuple[str, str], list[Any]] = {}
            for site, hand_id, *rest in store.run(sql):
                out.setdefault((site, hand_id), []).append(rest[0] if len(rest) == 1 else tuple(rest))
            return out
        own = "x JOIN hands h USING (site, hand_id) WHERE x.profile = h.rules_profile"
        violations = per_hand(f"SELECT x.site, x.hand_id, x.code, x.message FROM violations {own}")
        unverifiable = per_hand(f"SELECT x.site, x.hand_id, x.reason FROM unverifiable {own}")
        assumptions = per_hand(f"SELECT x.site, x.hand_id, x.words FROM assumptions {own}")
    for site, hand_id, decided in rows:
        key = (site, hand_id)
        found[key] = Seen(decided, tuple(sorted(violations.get(key, []))), tuple(sorted(unverifiable.get(key, []))),
                          tuple(sorted(assumptions.get(key, []))))
    return found


def shown(db: Path, site: str, hand_id: str) -> Seen:
    """`hhtool show --format json`, as the command computes it."""
    from hhtool.service.judging import show_hand

    described = show_hand(Database(str(db)), hand_id, site, None, False).described
    violations = [(v["code"], v["message"]) for street in described["streets"] for row in street["actions"]
                  for v in row["violations"]]
    violations += [(v["code"], v["message"]) for v in described["other_violations"]]
    return Seen(described["verdict"], tuple(sorted(violations)), tuple(sorted(u["reason"] for u in described["unverifiable"])),
                tuple(sorted(a["words"] for a in described["assumptions"])))


def explained(db: Path, site: str, hand_id: str) -> tuple[Seen, dict[str, Any]]:
    """`audit --explain --format json`: the desk's report as the command computes it, and the player's copy."""
    from hhtool.reports.dispute.customer_out import copy_dict
    from hhtool.reports.dispute.json_out import report_dict
    from hhtool.service.audit import explain

    database = Database(str(db))
    desk = report_dict(explain(database, (), hand_id, site, None))  # type: ignore[arg-type]
    player = copy_dict(explain(database, (), hand_id, site, None, form="player"))  # type: ignore[arg-type]
    violations = [("", f["message"]) for f in desk["findings"] if f["kind"] == "violation"]
    return Seen(desk["verdict"], tuple(sorted(violations)),
                tuple(sorted(f["message"] for f in desk["findings"] if f["kind"] == "unverifiable")),
                tuple(sorted(a["words"] for a in desk["assumptions"]))), player


_ITEM = re.compile(r'<li class="(finding (?:violation|unverifiable)|assumption)">(.*?)</li>', re.S)
_BADGE = re.compile(r'id="verdict-badge">([^<]*)<')


def paged(client: Any, site: str, hand_id: str) -> Seen:
    """The web hand page (`hhtool serve`): its verdict badge and its list of findings and assumptions."""
    response = client.get(f"/hand/{site}/{hand_id}")
    assert response.status_code == 200, response.text[:300]
    badge = _BADGE.search(response.text)
    assert badge is not None
    items = [(kind, html.unescape(text)) for kind, text in _ITEM.findall(response.text)]
    return Seen(badge.group(1), tuple(sorted(("", text.removeprefix("violation: ")) for kind, text in items
                                             if kind == "finding violation")),
                tuple(sorted(text.removeprefix("unverifiable: ") for kind, text in items if kind == "finding unverifiable")),
                tuple(sorted(text.removeprefix("assumed: ") for kind, text in items if kind == "assumption")))


def every_view_agrees(db: Path, part: tuple[int, int] = (0, 1)) -> dict[tuple[str, str], Seen]:
    """Each hand's judgement in every view, compared with the store's; the store's returned (every
    hand's). ``part`` (k, n): only the hands whose place in the store's order is k modulo n are viewed,
    so that n tests share the views of many hands (pytest-xdist runs them side by side)."""
    from hhtool.service.serving import HeldStore
    from hhtool.web.app import create_app

    of_record = stored(db)
    held = HeldStore(Database(str(db)))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"}, token="t0ken")) as client:
            for place, ((site, hand_id), record) in enumerate(sorted(of_record.items())):
                if place % part[1] != part[0]:
                    continue
                without_codes = Seen(record.verdict, tuple(sorted(("", message) for _, message in record.violations)),
                                     record.unverifiable, record.assumptions)
                assert shown(db, site, hand_id) == record, (site, hand_id)
                desk, player = explained(db, site, hand_id)
                assert desk == without_codes, (site, hand_id)
                assert player["assumptions"] == [without_lines(words.split(NO_SOURCE)[0]) for words in
                                                 sorted(record.assumptions)], (site, hand_id)
                assert bool(player["not_verified"]) == bool(record.unverifiable), (site, hand_id)
                assert paged(client, site, hand_id) == without_codes, (site, hand_id)
    finally:
        held.close()
    return of_record


def hidden_card_reasons_only(of_record: dict[tuple[str, str], Seen], db: Path) -> None:
    with Store(str(db), read_only=True) as store:
        checks = {check for (check,) in store.run(
            "SELECT DISTINCT u.check_code FROM unverifiable u JOIN hands h USING (site, hand_id) "
            "WHERE u.profile = h.rules_profile")}
    assert checks <= HIDDEN_CARD_CHECKS, checks
    for record in of_record.values():  # and each reason names the card it waits for
        assert all("not printed" in reason or "not shown" in reason or "hidden" in reason or "upcard" in reason
                   for reason in record.unverifiable), record.unverifiable


@pytest.mark.slow
def test_every_view_of_every_sample_hand_reads_one_judgement(tmp_path: Path) -> None:
    db = imported(tmp_path, SAMPLES)
    of_record = every_view_agrees(db)
    assert len(of_record) == 159
    verdicts = Counter(record.verdict for record in of_record.values())
    # before #33: 11 unverifiable (7 by POT_TOTAL, 2 by ANTE and BRING_IN_AMOUNT, 4 by hidden door cards); now only
    # the 4 PartyPoker hands whose opponents' upcards are not printed
    assert verdicts == {"ok": 155, "unverifiable": 4}, verdicts
    hidden_card_reasons_only(of_record, db)
    kinds = Counter(words.split(" ")[0] for record in of_record.values() for words in record.assumptions)
    assert kinds == {"rake": 7, "ante": 2, "bring-in": 2}, kinds


@pytest.mark.slow
def test_every_view_of_every_corpus_hand_reads_one_judgement(tmp_path: Path) -> None:
    db = imported(tmp_path, require_corpus())
    of_record = every_view_agrees(db)
    verdicts = Counter(record.verdict for record in of_record.values())
    assert verdicts == {"ok": 52, "unverifiable": 1}, verdicts  # the PartyPoker hand whose door card is not printed
    hidden_card_reasons_only(of_record, db)


@pytest.fixture(scope="module")
def simulated_2000(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Any, Any]]:
    """2,000 simulated hands (a fifth with one fault, two sites) imported, and the faults' sidecar."""
    tmp_path = tmp_path_factory.mktemp("simulated-2000")
    histories = []
    sidecar: dict[Any, Any] = {}
    for site, seed in (("pokerstars", 71), ("fulltilt", 72)):
        out = tmp_path / f"sim-{site}.txt"
        result = runner.invoke(app, ["simulate", "--hands", "1000", "--seed", str(seed), "--site", site,
                                     "--faults", "0.2", "--out", str(out)])
        assert result.exit_code == 0, result.output
        histories.append(out)
        sidecar.update({(site, hand_id): entry for hand_id, entry in
                        json.loads(out.with_name(out.name + ".faults.json").read_text(encoding="utf-8")).items()})
    return imported(tmp_path, *histories), sidecar


#: the 2,000 hands' views are shared by this many tests (the largest single test of the slow set: 11 minutes alone)
VIEW_PARTS = 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(VIEW_PARTS), ids=lambda k: f"views {k + 1} of {VIEW_PARTS}")
def test_every_view_of_two_thousand_simulated_hands_reads_one_judgement(
        simulated_2000: tuple[Path, dict[Any, Any]], part: int) -> None:
    db, sidecar = simulated_2000
    of_record = every_view_agrees(db, (part, VIEW_PARTS))
    assert len(of_record) == 2000
    with Store(str(db), read_only=True) as store:
        reported: dict[tuple[str, str], set[tuple[str, int | None, str | None]]] = {}
        for site, hand_id, code, street, player in store.run(
                "SELECT v.site, v.hand_id, v.code, v.street, v.player FROM violations v JOIN hands h "
                "USING (site, hand_id) WHERE v.profile = h.rules_profile"):
            reported.setdefault((site, hand_id), set()).add((code, street, player))
    caught = missed = 0
    for key, record in of_record.items():
        entry = sidecar.get(key)
        if entry is None:  # a clean hand: no finding, nothing unverifiable
            assert record.verdict == "ok" and not record.violations, (key, record)
            continue
        injected = (entry["code"], entry["street"], entry["player"])
        if injected in reported.get(key, set()):  # (with its companions: tests/test_simulate.py says which)
            caught += 1
        else:  # e.g. a lone hand's assumption hiding a fault only its table shows
            missed += 1
    assert missed == 0 and caught == len(sidecar) and 300 <= caught <= 500, (caught, missed, len(sidecar))


def test_show_draws_no_door_card_the_history_does_not_print(tmp_path: Path) -> None:
    """PartyPoker hand 11480841734 prints only the hero's cards: the judgement leaves the bring-in open
    because Player1's door card is not printed; `show` (text and JSON) draws his cards on the streets as
    unknown, not the showdown's list laid out as if it were the dealing order."""
    db = imported(tmp_path, require_corpus("PartyPoker"))
    described = json.loads(runner.invoke(app, ["show", "11480841734", "--db", str(db), "--format", "json"],
                                                      env={"COLUMNS": "80"}).output)
    third = next(street for street in described["streets"] if street["street"] == 3)
    player1 = next(deal for deal in third["deals"] if deal["player"] == "Player1")
    assert player1["up"] == ["??"] and player1["down"] == ["??", "??"], player1
    assert any("upcard is not printed" in u["reason"] for u in described["unverifiable"])
    text = runner.invoke(app, ["show", "11480841734", "--db", str(db)], env={"COLUMNS": "80"}).output
    assert "Player1: [?? ?? | ??]" in text and "(Ac)" not in text.split("*** showdown ***")[0]


@pytest.mark.slow
def test_another_profile_is_judged_by_the_same_function_stored_or_not(tmp_path: Path) -> None:
    """`show --rules default` of a hand never judged under that profile works out the judgement in memory
    by the functions `audit --rules default` stores it with (the cross-hand pass included: no placeholder
    "no table context is known"): the same verdict, findings, assumptions and reasons before and after."""
    from hhtool.service.judging import show_hand

    db = imported(tmp_path, SAMPLES / "pokerstars", SAMPLES / "bovada")

    def judged() -> dict[str, Seen]:
        found = {}
        for hand_id in ("200", "2951204412", "900000000001"):
            described = show_hand(Database(str(db)), hand_id, None, "default", False).described
            assert described["profile"] == "default"
            found[hand_id] = Seen(described["verdict"], tuple(sorted(v["message"] for v in described["other_violations"])),
                                  tuple(sorted(u["reason"] for u in described["unverifiable"])),
                                  tuple(sorted(a["words"] for a in described["assumptions"])))
        return found

    before = judged()
    assert not any("no table context is known" in reason for seen in before.values() for reason in seen.unverifiable)
    assert before["200"].verdict == "ok" and len(before["200"].assumptions) == 2
    audited = runner.invoke(app, ["audit", "--db", str(db), "--rules", "default", "-q"])
    assert audited.exit_code in (0, 1), audited.output
    assert judged() == before
