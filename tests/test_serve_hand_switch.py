"""The hand page of `hhtool serve` over HTTP (Starlette's TestClient): the replayer's steps carry each
player's stack and what he has in front of him, checked against the history's own lines, and a down
card shown at the showdown stays a down card; the report's desk/player switch opens the player's copy
addressed to the player chosen, and refuses a copy addressed to nobody or to a stranger."""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from hhtool.service.serving import HeldStore
from hhtool.service.stores import Database
from tests.serve_helpers import HOSTILE, HOSTILE_HAND, build_store

starlette_testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed (pip install httpx)")

#: the side-pot sample (sample_histories/pokerstars/handwritten-scoop-and-side-pot.txt), its first hand
HAND = "/hand/pokerstars/900000000001"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from hhtool.web.app import create_app

    held = HeldStore(Database(str(build_store(tmp_path_factory.mktemp("serve-hand")))))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"}, token="t0ken")) as test_client:
            yield test_client
    finally:
        held.close()


def _steps(page: str) -> list[dict[str, Any]]:
    data = re.search(r'<script type="application/json" class="replay-data">(.*?)</script>', page, re.S)
    assert data is not None
    return list(json.loads(data.group(1))["steps"])


def _after(steps: list[dict[str, Any]], words: str) -> dict[str, Any]:
    return next(step for step in steps if step["words"] == words)


def test_every_step_has_each_stack_and_what_is_in_front(client: Any) -> None:
    steps = _steps(client.get(HAND).text)
    assert all(set(step["chips"]) == {"u.pressure", "gashpor", "Hero"} for step in steps)
    # the history: stacks $1.00, $1.50, $2.00; antes $0.01 each (to the pot, not in front); "u.pressure:
    # raises $0.02 to $0.04" over the bring-in, a completion in the replayer's words
    first = _after(steps, "u.pressure posts the ante $0.01")["chips"]
    assert first == {"u.pressure": {"stack": "$0.99", "front": "", "won": ""},
                     "gashpor": {"stack": "$1.50", "front": "", "won": ""},
                     "Hero": {"stack": "$2.00", "front": "", "won": ""}}
    raised = _after(steps, "u.pressure completes to $0.04")["chips"]
    assert raised["u.pressure"] == {"stack": "$0.95", "front": "$0.04", "won": ""}
    assert raised["gashpor"]["front"] == "$0.02" and raised["Hero"]["front"] == "$0.02"  # (bring-in; Hero's call)
    called = [step for step in steps if step["words"] == "gashpor calls $0.02"][-1]["chips"]
    assert called["gashpor"] == {"stack": "$1.45", "front": "$0.04", "won": ""}
    dealt_4th = next(step for step in steps if step["label"] == "4th street")["chips"]
    assert {chips["front"] for chips in dealt_4th.values()} == {""}  # a new street: the bets are in the pot
    bet = _after(steps, "gashpor bets $0.04")["chips"]
    assert bet["gashpor"] == {"stack": "$1.41", "front": "$0.04", "won": ""}
    showdown = steps[-1]
    assert showdown["showdown"]
    # "gashpor collected $0.19 … $0.18": $1.50 less $0.17 put in, plus $0.37; u.pressure $1.00 less $0.17
    assert showdown["chips"]["gashpor"] == {"stack": "$1.70", "front": "", "won": "$0.37"}
    assert showdown["chips"]["u.pressure"] == {"stack": "$0.83", "front": "", "won": ""}
    assert showdown["chips"]["Hero"]["stack"] == "$1.95"


def test_a_down_card_shown_at_the_showdown_stays_a_down_card(client: Any) -> None:
    steps = _steps(client.get(HAND).text)
    shown = [(card["card"], card["face"]) for card in steps[-1]["cards"]["gashpor"]]
    # "gashpor: shows [2d 5c 4h 8d 6s 3c Jh]": dealt 2d 5c and Jh face down
    assert shown == [("2d", "down"), ("5c", "down"), ("4h", "up"), ("8d", "up"), ("6s", "up"), ("3c", "up"),
                     ("Jh", "down")]
    before = [card["face"] for card in _after(steps, "gashpor bets $0.08")["cards"]["gashpor"]]
    assert before == ["down", "down", "up", "up", "up", "up"]  # (the same faces before it)


def test_the_report_switch_offers_every_player_of_the_hand(client: Any) -> None:
    page = client.get(HAND).text
    switch = page[page.index('<form method="get" action="/hand/pokerstars/900000000001/dispute" id="report-switch"'):]
    switch = switch[:switch.index("</form>")]
    assert re.findall(r'<input type="radio" name="for" value="(\w+)"', switch) == ["desk", "player"]
    assert re.findall(r'<option value="([^"]*)">', switch) == ["u.pressure", "gashpor", "Hero"]


def test_the_player_copy_is_addressed_to_the_player_chosen(client: Any) -> None:
    desk = client.get(f"{HAND}/dispute?for=desk&player=gashpor")  # (the desk's copy ignores the player)
    assert desk.status_code == 200 and "dispute report" in desk.text and "your dispute" not in desk.text
    copy = client.get(f"{HAND}/dispute?for=player&player=gashpor")
    assert copy.status_code == 200 and "your dispute" in copy.text
    assert "you won the high half" in copy.text  # (to him: his own hand's part)
    other = client.get(f"{HAND}/dispute?for=player&player=u.pressure")
    assert other.status_code == 200 and "you won" not in other.text
    assert copy.headers["content-security-policy"].startswith("default-src 'none'")


@pytest.mark.parametrize(("query", "said"), [
    ("for=player", "addressed to one player of the hand"),
    ("for=player&player=nobody", "player 'nobody': no such player in hand 900000000001"),
    ("for=clerk", "for='clerk': choose desk or player"),
])
def test_a_copy_for_nobody_is_refused_in_one_line(client: Any, query: str, said: str) -> None:
    answer = client.get(f"{HAND}/dispute?{query}")
    assert answer.status_code == 400 and answer.headers["content-type"].startswith("text/plain")
    assert said in answer.text and "\n" not in answer.text.strip()


def test_a_hostile_player_gets_his_copy_with_his_name_as_text(client: Any) -> None:
    copy = client.get(f"/hand/pokerstars/{HOSTILE_HAND}/dispute?for=player&player={urllib.parse.quote(HOSTILE)}")
    assert copy.status_code == 200 and HOSTILE not in copy.text
    page = client.get(f"/hand/pokerstars/{HOSTILE_HAND}").text
    assert f'<option value="{html.escape(HOSTILE)}">' in page  # (escaped: no quote in the name to tell apart)


def test_a_hand_opened_from_a_players_list_links_to_the_hands_against_each_opponent(client: Any) -> None:
    page = client.get(f"{HAND}?player=Hero&site=pokerstars").text
    links = re.findall(r'<a href="(/player/against\?[^"]*)">([^<]*)</a>', page)
    assert [name for _, name in links] == ["u.pressure", "gashpor"]  # (Hero's opponents in the hand, not Hero)
    against = client.get(html.unescape(links[1][0]))
    assert against.status_code == 200 and "Hero <span class=\"meta\">against</span> gashpor" in against.text
    assert "/hand/pokerstars/900000000001" in against.text  # (this hand among those both played)
    unowned = client.get(HAND).text  # opened from no player's list: each player's own page instead
    assert re.findall(r'<a href="/player\?player=([^"&]*)">', unowned) == ["u.pressure", "gashpor", "Hero"]
