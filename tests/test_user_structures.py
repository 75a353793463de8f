"""Issue #33 part 3: the desk's own structures file (`--structures FILE.toml`, or `structures = "FILE"` in
the config file). With it, a lone hand's forced bets and a cash hand's unprinted rake are checked, not
assumed: ok when they agree, a violation citing the file when not; every mistake in the file is one line
naming the file and the key path, exit 2. Every test runs the commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from hhtool.cli import app
from hhtool.replay.structures import LevelKey
from hhtool.replay.user_structures import load_structures
from hhtool.store import Store
from tests.inputs import REPO, SAMPLES

runner = CliRunner()
POKERSTARS = SAMPLES / "pokerstars" / "handwritten-scoop-and-side-pot.txt"  # hand #200: alone at table 'Side'
MERGE = SAMPLES / "merge"  # four cash hands, no rake printed: three pots kept $0.15, $0.15, $0.16

#: hand #200's level: $10/$20 USD; everyone anted $1.00 and Shorty brought in for $3.00
LEVEL_200 = """[[sites.pokerstars.levels]]
currency = "USD"
small_bet = "$10"
big_bet = "$20"
ante = "{ante}"
bring_in = "{bring_in}"
"""


@pytest.fixture(autouse=True)
def no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No user's config file: each test names its structures file itself (or writes a config)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("HHTOOL_CONFIG", raising=False)
    monkeypatch.delenv("HHTOOL_DB", raising=False)


def written(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> Result:
    return runner.invoke(app, [*args])


def imported(folder: Path, source: Path, *extra: str) -> str:
    db = str(folder / "desk.duckdb")
    result = run("import", str(source), "--db", db, "-q", "--jobs", "1", *extra)
    assert result.exit_code in (0, 1), result.output
    return db


def findings(db: str, hand_id: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
    """(violations (code, message), assumptions (kind, words), verdict) stored for the hand."""
    with Store(db, read_only=True) as store:
        violations = store.run("SELECT code, message FROM violations WHERE hand_id = ? ORDER BY line, code", [hand_id])
        assumptions = store.run("SELECT kind, words FROM assumptions WHERE hand_id = ? ORDER BY kind", [hand_id])
        verdict = store.run("SELECT verdict FROM hands WHERE hand_id = ?", [hand_id])[0][0]
    return [tuple(row) for row in violations], [tuple(row) for row in assumptions], str(verdict)


def test_the_documented_example_loads_and_says_what_the_docs_say(tmp_path: Path) -> None:
    text = (REPO / "docs" / "structures.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None
    desk = load_structures(str(written(tmp_path, "example.toml", example.group(1))))
    cash = desk.level(LevelKey("pokerstars", None, "USD", "fixed_limit", 4, 8))
    assert cash is not None and (cash.ante, cash.bring_in) == (1, 2)
    tournament = desk.level(LevelKey("pokerstars", "169962475", "CHIPS", "fixed_limit", 100, 200))
    assert tournament is not None and (tournament.ante, tournament.bring_in) == (10, 25)
    small = desk.rake_for(LevelKey("pokerstars", None, "USD", "fixed_limit", 4, 8))
    other = desk.rake_for(LevelKey("pokerstars", None, "USD", "fixed_limit", 100, 200))
    assert small is not None and (small.cap, small.min_pot, small.no_drop_third) == (50, 25, True)
    assert other is not None and other.cap == 300 and other.expected(10_000, True) == 300
    assert small.expected(24, False) == 0 and small.expected(200, True) == 0 and small.expected(999, False) == 49
    merge = desk.rake_for(LevelKey("merge", None, "USD", "fixed_limit", 25, 50))
    assert merge is not None and merge.expected(508, False) == 22  # 4.5 % of $5.08 = 22.86 cents, rounded down
    assert desk.rake_for(LevelKey("pokerstars", "169962475", "CHIPS", "fixed_limit", 100, 200)) is None


@pytest.mark.slow
def test_a_lone_hands_assumed_forced_bets_become_checks_with_the_file(tmp_path: Path) -> None:
    (tmp_path / "none").mkdir()
    _, assumed, verdict = findings(imported(tmp_path / "none", POKERSTARS), "200")
    assert verdict == "ok" and [kind for kind, _ in assumed] == ["ante", "bring_in"]  # without the file

    agreeing = written(tmp_path, "desk.toml", LEVEL_200.format(ante="$1", bring_in="$3"))
    (tmp_path / "ok").mkdir()
    violations, assumed, verdict = findings(imported(tmp_path / "ok", POKERSTARS, "--structures", str(agreeing)), "200")
    assert (violations, assumed, verdict) == ([], [], "ok")
    with Store(str(tmp_path / "ok" / "desk.duckdb"), read_only=True) as store:
        assert store.run("SELECT ante_source, bring_in_source FROM hands WHERE hand_id = '200'") == [("user", "user")]

    disagreeing = written(tmp_path, "other.toml", LEVEL_200.format(ante="$2", bring_in="$3"))
    (tmp_path / "bad").mkdir()
    violations, assumed, verdict = findings(imported(tmp_path / "bad", POKERSTARS, "--structures", str(disagreeing)), "200")
    assert verdict == "violation" and [kind for kind, _ in assumed] == []
    assert [code for code, _ in violations] == ["ANTE"] * 3
    assert all("the ante is $2.00 by the structures file other.toml" in message for _, message in violations)


@pytest.mark.slow
def test_show_and_explain_name_the_file_and_judge_again_in_memory(tmp_path: Path) -> None:
    db = imported(tmp_path, POKERSTARS)
    disagreeing = written(tmp_path, "desk.toml", LEVEL_200.format(ante="$1", bring_in="$2"))
    shown = run("show", "200", "--db", db, "--format", "json", "--structures", str(disagreeing))
    assert shown.exit_code == 0, shown.output
    described = json.loads(shown.output)
    assert described["verdict"] == "violation" and described["assumptions"] == []  # both checked
    messages = re.findall(r'"message": "([^"]*)"', shown.output)  # (a finding sits with its action, or apart)
    assert messages == ["Shorty brought in for $3.00; the bring-in is $2.00 by the structures file desk.toml "
                        "(PokerStars $10.00/$20.00 USD)"]
    text = run("show", "200", "--db", db, "--structures", str(disagreeing)).output
    assert "(ante: your structures file, bring-in: your structures file, bets: header)" in text
    explained = run("audit", "--explain", "200", "--db", db, "--structures", str(disagreeing))
    assert explained.exit_code == 0, explained.output
    flat = " ".join(explained.output.split())
    assert "bring-in $2.00: stated by your structures file" in flat and "by the structures file desk.toml" in flat
    assert findings(db, "200")[2] == "ok"  # the views stored nothing
    plain = json.loads(run("show", "200", "--db", db, "--format", "json").output)
    assert plain["verdict"] == "ok" and len(plain["assumptions"]) == 2


def test_audit_with_the_file_judges_the_stored_hands_again(tmp_path: Path) -> None:
    db = imported(tmp_path, POKERSTARS)
    disagreeing = written(tmp_path, "desk.toml", LEVEL_200.format(ante="$2", bring_in="$3"))
    audited = run("audit", "--db", db, "--hand", "200", "--structures", str(disagreeing), "--format", "jsonl")
    assert audited.exit_code == 1, audited.output
    assert [json.loads(line)["code"] for line in audited.output.splitlines()] == ["ANTE"] * 3
    again = run("audit", "--db", db, "--hand", "200", "--rules", "default", "--structures", str(disagreeing),
                "--format", "jsonl")
    assert again.exit_code == 1 and "by the structures file desk.toml" in again.output


@pytest.mark.slow
@pytest.mark.parametrize(("percent", "violated"), [(3.3, []), (5, ["81234567-2", "81234567-3", "81234567-4"])])
def test_the_implied_rake_is_checked_against_the_schedule(tmp_path: Path, percent: float, violated: list[str]) -> None:
    without = imported(tmp_path, MERGE)
    with Store(without, read_only=True) as store:
        raked = sorted(row[0] for row in store.run("SELECT hand_id FROM assumptions WHERE kind = 'rake'"))
    assert raked == ["81234567-2", "81234567-3", "81234567-4"]  # $0.15 of $5.08, $0.15 of $4.35, $0.16 of $4.61
    schedule = written(tmp_path, "rake.toml", f"[[sites.merge.rake]]\npercent = {percent}\ncap = \"$3\"\n")
    (tmp_path / "with").mkdir()
    db = imported(tmp_path / "with", MERGE, "--structures", str(schedule))
    with Store(db, read_only=True) as store:
        assert store.run("SELECT count(*) FROM assumptions WHERE kind = 'rake'") == [(0,)]
        found = store.run("SELECT hand_id, message FROM violations WHERE code = 'POT_TOTAL' ORDER BY hand_id")
    assert [hand_id for hand_id, _ in found] == violated
    if violated:
        assert found[0][1] == ("$5.08 went into the pot and $4.93 was paid out: the pot kept $0.15, but the structures "
                               "file rake.toml (sites.merge.rake[0]) rakes $0.25 (5% rounded down, at most $3.00)")
        shown = run("show", "81234567-2", "--db", without, "--structures", str(schedule), "--format", "json")
        assert "rake.toml (sites.merge.rake[0]) rakes $0.25" in shown.output and '"verdict": "violation"' in shown.output
    explained = " ".join(run("audit", "--explain", "81234567-2", "--db", without, "--structures", str(schedule)).output.split())
    assert "implied by the site's payouts; checked against the structures file rake.toml (sites.merge.rake[0])" in explained
    assert ("rakes $0.25" in explained) == bool(violated)


def test_the_config_files_structures_key(tmp_path: Path) -> None:
    desk = written(tmp_path, "desk.toml", LEVEL_200.format(ante="$2", bring_in="$3"))
    config = tmp_path / "xdg" / "hhtool" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('structures = "../../desk.toml"\n', encoding="utf-8")  # (relative to the config file's folder)
    shown = run("config")
    assert shown.exit_code == 0 and f"structures:  {config.parent / '../../desk.toml'}" in shown.output, shown.output
    assert (config.parent / "../../desk.toml").resolve() == desk
    violations, _, _ = findings(imported(tmp_path, POKERSTARS), "200")
    assert [code for code, _ in violations] == ["ANTE"] * 3
    config.write_text("structures = 5\n", encoding="utf-8")
    wrong = run("import", str(POKERSTARS), "--db", str(tmp_path / "x.duckdb"))
    assert wrong.exit_code == 2 and "structures must be a file name in quotes" in wrong.output
    config.write_text('structures = "nowhere.toml"\n', encoding="utf-8")
    missing = run("show", "200", "--db", str(tmp_path / "desk.duckdb"))
    assert missing.exit_code == 2 and "nowhere.toml: no such structures file" in missing.output
    assert "named by the config file" in missing.output


LEVEL = '[[sites.pokerstars.levels]]\ncurrency = "USD"\nsmall_bet = 4\nbig_bet = 8\n'

#: (file text, what the one-line error says after "error: bad.toml: ")
BAD_FILES = [
    ("[sites.pokerstar]\n", "sites.pokerstar: unknown site (the sites are absolute,"),
    ("nosuch = 1\n", "nosuch: unknown key (the keys here are sites)"),
    ("[sites.pokerstars]\nlevel = []\n", "sites.pokerstars.level: unknown key (the keys here are levels, rake)"),
    (LEVEL + "antes = 1\n", "sites.pokerstars.levels[0].antes: unknown key (the keys of a level are"),
    (LEVEL + LEVEL.replace("8", "10") + LEVEL.replace("8", "12") + 'ante = "-$0.01"\n',
     "sites.pokerstars.levels[2].ante: wants a whole amount like \"$0.05\" or 5 "
                                       "(cents), not '-$0.01'"),
    (LEVEL + "ante = -1\n", "sites.pokerstars.levels[0].ante: wants a whole amount"),
    (LEVEL + "ante = 0.5\n", "sites.pokerstars.levels[0].ante: wants a whole amount"),
    (LEVEL + 'ante = "$0.005"\n', "sites.pokerstars.levels[0].ante: wants a whole amount"),
    (LEVEL + "bring_in = 4\n", "sites.pokerstars.levels[0].bring_in: wants an amount below the small bet (4), not 4"),
    ('[[sites.pokerstars.levels]]\ncurrency = "USD"\nbig_bet = 8\n', "sites.pokerstars.levels[0].small_bet: missing"),
    (LEVEL + 'structure = "limit"\n', "sites.pokerstars.levels[0].structure: wants one of fixed_limit, pot_limit"),
    (LEVEL.replace('"USD"', "7"), "sites.pokerstars.levels[0].currency: wants a currency code"),
    (LEVEL * 2, "sites.pokerstars.levels[1]: a second row for the same level"),
    ("[sites.pokerstars]\nlevels = 3\n", "sites.pokerstars.levels: wants tables like"),
    ("[[sites.merge.rake]]\ncap = 5\n", "sites.merge.rake[0].percent: missing"),
    ("[[sites.merge.rake]]\npercent = 120\n", "sites.merge.rake[0].percent: wants a number from 0 to 100"),
    ("[[sites.merge.rake]]\npercent = \"5%\"\n", "sites.merge.rake[0].percent: wants a number from 0 to 100"),
    ("[[sites.merge.rake]]\npercent = 5\ncap = -3\n", "sites.merge.rake[0].cap: wants a whole amount"),
    ("[[sites.merge.rake]]\npercent = 5\nno_drop_third = \"yes\"\n", "sites.merge.rake[0].no_drop_third: wants true"),
    ("[[sites.merge.rake]]\npercent = 5\nhouse = 1\n", "sites.merge.rake[0].house: unknown key"),
    ("sites = [\n", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "said"), BAD_FILES, ids=[said.split(":")[0] for _, said in BAD_FILES])
def test_each_mistake_is_one_line_naming_the_file_and_the_key_exit_2(tmp_path: Path, text: str, said: str) -> None:
    bad = written(tmp_path, "bad.toml", text)
    for command in (["import", str(POKERSTARS)], ["audit"], ["show", "200"]):
        result = run(*command, "--db", str(tmp_path / "never.duckdb"), "--structures", str(bad))
        assert result.exit_code == 2, (command, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: bad.toml: {said}"), (command, result.output)
        assert "Traceback" not in result.output
    assert not (tmp_path / "never.duckdb").exists()  # checked before anything was opened


def test_a_missing_file_or_a_folder_is_one_line(tmp_path: Path) -> None:
    for given, said in ((tmp_path / "none.toml", "none.toml: no such structures file"),
                        (tmp_path, f"{tmp_path.name}: is a folder, not a structures file")):
        result = run("import", str(POKERSTARS), "--db", str(tmp_path / "never.duckdb"), "--structures", str(given))
        assert result.exit_code == 2 and result.output.strip() == f"error: {said}" + (
            f" ({given})" if "no such" in said else ""), result.output


def test_a_hostile_file_name_or_key_stays_one_line(tmp_path: Path) -> None:
    named = run("import", str(POKERSTARS), "--db", str(tmp_path / "never.duckdb"), "--structures",
                str(tmp_path / "evil\nname[red].toml"))
    assert named.exit_code == 2 and named.output.count("\n") == 1 and "'evil\\nname[red].toml'" in named.output
    key = written(tmp_path, "k.toml", '[[sites.pokerstars.levels]]\ncurrency = "USD"\nsmall_bet = 4\nbig_bet = 8\n'
                  '"bad\\nkey" = 1\n')
    result = run("show", "200", "--db", str(tmp_path / "never.duckdb"), "--structures", str(key))
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert result.output.startswith("error: k.toml: sites.pokerstars.levels[0].'bad\\nkey': unknown key")


def test_audit_report_pages_judge_with_the_file_given_or_configured(tmp_path: Path) -> None:
    """`audit --report DIR` writes its pages with the structures file, as `audit --explain` judges: the
    option's, or the config file's."""
    db = imported(tmp_path, POKERSTARS)
    disagreeing = written(tmp_path, "desk.toml", LEVEL_200.format(ante="$2", bring_in="$3"))
    pages = tmp_path / "pages"
    result = run("audit", "--db", db, "--report", str(pages), "--structures", str(disagreeing))
    assert result.exit_code == 1, result.output
    [page] = [path for path in pages.glob("*.html") if path.name != "index.html"]
    flat = " ".join(page.read_text(encoding="utf-8").split())
    assert "by the structures file desk.toml" in flat and "ante $1.00, as" not in flat
    config = tmp_path / "xdg" / "hhtool" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'structures = "{disagreeing}"\n', encoding="utf-8")
    configured = tmp_path / "configured"
    result = run("audit", "--db", db, "--report", str(configured))
    assert result.exit_code == 1, result.output
    def written_pages(folder: Path) -> dict[str, str]:
        return {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.html")}

    assert written_pages(configured) == written_pages(pages)


def test_serve_judges_its_pages_with_the_file_given_or_configured(tmp_path: Path) -> None:
    """`hhtool serve --structures FILE` (or the config file's) shows the hand page judged with it; a wrong
    file is one line and exit 2 before anything is served."""
    import urllib.request

    from tests.serve_helpers import running_server

    db = imported(tmp_path, POKERSTARS)
    disagreeing = written(tmp_path, "desk.toml", LEVEL_200.format(ante="$2", bring_in="$3"))

    def hand_page(*args: str) -> str:
        with running_server(Path(db), *args) as (base, _), \
                urllib.request.urlopen(f"{base}/hand/pokerstars/200", timeout=30) as response:
            return " ".join(response.read().decode("utf-8").split())

    assert "by the structures file desk.toml" not in hand_page()
    assert "by the structures file desk.toml" in hand_page("--structures", str(disagreeing))
    config = tmp_path / "xdg" / "hhtool" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'structures = "{disagreeing}"\n', encoding="utf-8")
    assert "by the structures file desk.toml" in hand_page()
    wrong = run("serve", "--db", db, "--structures", str(tmp_path / "nowhere.toml"))
    assert wrong.exit_code == 2 and "nowhere.toml: no such structures file" in wrong.output, wrong.output
