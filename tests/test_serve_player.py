"""A player's page in `hhtool serve` (Starlette's TestClient on the app): his rates first, as the players
table's columns, then his money, then every rate; his opponents, and the hands he played against one
with each one's net, checked against what the `hands` command lists for each of them."""

from __future__ import annotations

import html
import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hhtool.cli import app as cli_app
from hhtool.service.serving import HeldStore
from hhtool.service.stores import Database
from tests.serve_helpers import HOSTILE, app_client, build_store

starlette_testclient = pytest.importorskip("starlette.testclient", reason="httpx is not installed (pip install httpx)")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("serve-player"))


@pytest.fixture(scope="module")
def client(store: Path) -> Iterator[Any]:
    with app_client(store) as test_client:
        yield test_client


def _cli_json(store: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli_app, [*args, "--db", str(store), "--format", "json"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_player_page_leads_with_the_players_tables_rates(client: Any, store: Path) -> None:
    page = client.get("/player?player=Hero")
    assert page.status_code == 200
    blocks = re.findall(r'<section class="player-block"><h2>(\w+) .*?</section>', page.text, re.S)
    assert len(blocks) >= 2  # (Hero plays in dollars and euros in the samples: one block each)
    stats = {row["currency"]: row for row in _cli_json(store, "stats", "--player", "Hero")}
    for currency in blocks:
        _check_block(page.text, currency, stats[currency])
    text = page.text
    # the rates first, then the money, then every rate behind its summary
    assert text.index('class="rates"') < text.index(">Net<") < text.index("Every rate (")


def _check_block(page: str, currency: str, stats: dict[str, Any]) -> None:
    text = page[page.index(f'<section class="player-block"><h2>{currency} '):]
    text = text[:text.index("</section>")]
    tiles = re.findall(r'<li class="rate" data-stat="([a-z_0-9]+)".*?<span class="rate-value">([^<]*)</span>'
                       r'<span class="rate-counts meta">([^<]*)</span>', text)
    # the players table's rate columns, in its order (stat_help.STAT_COLUMNS["player"] less the money)
    assert [key for key, _, _ in tiles] == ["vpip", "raise_3rd", "steal", "aggression_5th", "cbet_4th", "wtsd", "wsd",
                                            "scoop"]
    for key, shown, counts in tiles:  # the same numbers as `stats` says, from its own JSON
        assert shown == f"{stats[key] * 100:.1f}%", key
        assert counts == f"{stats[f'{key}_count']}/{stats[f'{key}_opportunities']}", key


def test_the_opponents_list_and_the_hands_against_one(client: Any, store: Path) -> None:
    hero = {(row["site"], row["hand_id"]): row["net"] for row in _cli_json(store, "hands", "--player", "Hero", "--limit", "1000")}
    other = {(row["site"], row["hand_id"]): row["net"] for row in _cli_json(store, "hands", "--player", "gashpor",
                                                                           "--limit", "1000")}
    both = sorted(set(hero) & set(other))
    assert len(both) > 5  # (the samples: the opponent sat with Hero for a while)

    player_page = client.get("/player?player=Hero").text
    assert '<a href="/player/against?player=Hero" id="opponents-link">' in player_page
    assert 'id="opponent-form"' in player_page  # (or a name typed on his page)
    listed_opponents = client.get("/player/against?player=Hero").text
    row = re.search(r'<a href="(/player/against\?[^"]*opponent=gashpor)">gashpor</a></td><td class="wide">pokerstars</td>'
                    r'<td class="num">(\d+)</td>', listed_opponents)
    assert row is not None and int(row.group(2)) == len(both)

    page = client.get(html.unescape(row.group(1)))
    assert page.status_code == 200
    listed = re.findall(r'<a href="/hand/([^/]+)/(\d+)">\2</a>.*?'
                        r'<td class="num[^"]*">([^<]*)</td><td class="num[^"]*">([^<]*)</td>', page.text, re.S)
    assert sorted((site, hand) for site, hand, _, _ in listed) == both
    for site, hand, net, opponent_net in listed:  # each one's own net in the hand, as `hands` lists it
        assert net == _dollars(hero[(site, hand)]) and opponent_net == _dollars(other[(site, hand)])
    sums = re.search(r'<table id="against-sums".*?<td class="num">(\d+)</td>\s*<td class="num[^"]*">([^<]*)</td>'
                     r'<td class="num[^"]*">([^<]*)</td>', page.text, re.S)
    assert sums is not None
    assert sums.groups() == (str(len(both)), _dollars(sum(hero[k] for k in both)), _dollars(sum(other[k] for k in both)))
    assert "each one's own net" in page.text  # the definition, said on the page


def _dollars(cents: int) -> str:
    return f"{'-' if cents < 0 else ''}${abs(cents) // 100}.{abs(cents) % 100:02d}"


@pytest.mark.parametrize(("query", "status", "said"), [
    ("player=Hero&opponent=gashpr", 400, "did you mean &#39;gashpor&#39;"),
    ("player=Hero&opponent=Hero", 400, "against himself"),
    ("player=Hero&opponent=gashpor&stakes=cheap", 400, "stakes must look like"),
])
def test_a_wrong_opponent_is_said_on_the_page(client: Any, query: str, status: int, said: str) -> None:
    page = client.get(f"/player/against?{query}")
    assert page.status_code == status
    assert said in page.text and 'role="alert"' in page.text


def test_no_opponent_lists_his_opponents_to_choose_from(client: Any) -> None:
    page = client.get("/player/against?player=Hero", follow_redirects=False)
    assert page.status_code == 200 and 'id="opponent-list"' in page.text and 'id="opponent-form"' in page.text
    counts = [int(n) for n in re.findall(r'<td class="wide">[^<]*</td><td class="num">(\d+)</td>', page.text)]
    assert counts and counts == sorted(counts, reverse=True)  # most hands together first


def test_a_hostile_opponent_is_shown_as_text(client: Any) -> None:
    page = client.get(f"/player/against?player=Hero&opponent={urllib.parse.quote(HOSTILE)}")
    assert page.status_code == 200
    assert HOSTILE not in page.text and "<img" not in page.text.split("<main>")[1]
    assert "&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;gash&lt;/b&gt;&amp;amp;" in page.text
    assert 'id="against-hands"' in page.text  # (he sat with Hero: his hand is listed)


def test_an_alias_plays_against_an_opponent_with_all_his_names(tmp_path: Path) -> None:
    from hhtool.web.app import create_app
    from tests.serve_helpers import SIDE_POT

    db = str(tmp_path / "alias.duckdb")
    runner = CliRunner()
    for args in (["import", str(SIDE_POT), "-q"], ["alias", "add", "Me", "pokerstars:Hero"]):
        result = runner.invoke(cli_app, [*args, "--db", db])
        assert result.exit_code == 0, result.output
    held = HeldStore(Database(db))
    try:
        with starlette_testclient.TestClient(create_app(held, {"testserver"})) as client:
            page = client.get("/player/against?player=Me&opponent=gashpor").text
            alone = client.get("/player/against?player=Hero&opponent=gashpor").text
            nobody = client.get("/player/against?player=Me&opponent=u.pressure&site=bovada")
    finally:
        held.close()
    hands = re.findall(r'<a href="/hand/pokerstars/(\d+)">', page)
    assert hands == ["900000000001"] == re.findall(r'<a href="/hand/pokerstars/(\d+)">', alone)
    assert "Hero v gashpor" in page  # (the alias's name in the hand, said under it)
    assert nobody.status_code == 400  # (no hand of his on that site: said, as every page says it)
