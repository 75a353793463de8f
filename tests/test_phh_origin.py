"""Issue #16's PHH-origin bug, through the command line on a real Full Tilt history: a hand exported
to PHH (`hhtool export --format phh`) and imported again is judged by the Full Tilt profile, and
`show` and `audit --explain` of the stored hand name the profile and verdict of its stored row.

The sample's hand 30011236980 tells the profiles apart: Full Tilt takes the rake from the main pot
only, so it is ok under `fulltilt`, and a POT_AWARD violation under the rulebook defaults (which share
the rake between the pots in proportion), the profile a hand of an unknown site ("phh") would get."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from tests.inputs import SAMPLES

FULL_TILT = SAMPLES / "fulltilt" / "FT-Bramble-2-4-Stud-HiLo-201105.txt"
TELLING = "30011236980"  # ok under fulltilt, a violation under the rulebook defaults

runner = CliRunner()


def cli(*args: str, codes: tuple[int, ...] = (0,)) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code in codes, result.output
    return result.output


@pytest.fixture(scope="module")
def reimported(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Full Tilt sample imported, exported to PHH, and the export imported into a second store."""
    folder = tmp_path_factory.mktemp("phh_origin")
    first, second, export = folder / "ft.duckdb", folder / "re.duckdb", folder / "ft.phhs"
    cli("import", str(FULL_TILT), "--db", str(first), "--jobs", "1")
    assert "(4 hands)" in cli("export", "--format", "phh", "--out", str(export), "--db", str(first))
    cli("import", str(export), "--db", str(second), "--jobs", "1")
    return str(second)


def stored_rows(db: str) -> dict[str, tuple[str, str, str]]:
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute("SELECT hand_id, site, rules_profile, verdict FROM hands").fetchall()
    return {hand_id: (site, profile, verdict) for hand_id, site, profile, verdict in rows}


@pytest.mark.slow
def test_the_reimported_hands_are_stored_under_the_full_tilt_profile(reimported: str) -> None:
    rows = stored_rows(reimported)
    assert len(rows) == 4
    assert set(rows.values()) == {("phh", "fulltilt", "ok")}


@pytest.mark.parametrize("hand_id", ["30011220001", TELLING])
def test_show_and_explain_name_the_stored_profile_and_verdict(reimported: str, hand_id: str) -> None:
    stored_id = f"fulltilt:{hand_id}"
    _, profile, verdict = stored_rows(reimported)[stored_id]
    shown = json.loads(cli("show", stored_id, "--db", reimported, "--format", "json"))
    assert (shown["profile"], shown["verdict"]) == (profile, verdict)
    explained = cli("audit", "--db", reimported, "--explain", stored_id)
    assert f"Rules profile: {profile}. Verdict: {verdict}." in explained
    text = cli("show", stored_id, "--db", reimported)
    assert f"verdict: {verdict}" in text


def test_the_telling_hand_is_a_violation_under_the_defaults(reimported: str) -> None:
    """The counterpart: the check can fail; the rulebook defaults find the rake taken from every pot wrong."""
    stored_id = f"fulltilt:{TELLING}"
    shown = json.loads(cli("show", stored_id, "--db", reimported, "--format", "json", "--rules", "default"))
    assert (shown["profile"], shown["verdict"]) == ("default", "violation")
    assert "Rules profile: default. Verdict: violation." in cli("audit", "--db", reimported, "--explain", stored_id,
                                                                "--rules", "default")
    audited = cli("audit", "--db", reimported, codes=(0,))
    assert "4 hands audited: 4 ok; 0 violations reported" in audited


@pytest.mark.slow
def test_the_sites_own_history_is_stored_before_its_converted_copy(tmp_path: Path) -> None:
    """A folder holding a PHH export and the history it came from, the export first in the folder's
    order: the site's own history is the copy stored (a dispute cites the site's lines), the PHH one
    its duplicate."""
    first, export = tmp_path / "ft.duckdb", tmp_path / "both" / "a-export.phhs"
    export.parent.mkdir()
    cli("import", str(FULL_TILT), "--db", str(first), "--jobs", "1")
    cli("export", "--format", "phh", "--out", str(export), "--db", str(first))
    (export.parent / "z-original.txt").write_bytes(FULL_TILT.read_bytes())
    summary = json.loads(cli("import", str(export.parent), "--db", str(tmp_path / "both.duckdb"), "--format", "json"))
    assert (summary["totals"]["stored"], summary["totals"]["duplicates"]) == (4, 4), summary
    with duckdb.connect(str(tmp_path / "both.duckdb"), read_only=True) as con:
        assert con.execute("SELECT DISTINCT site, file FROM hands").fetchall() == [
            ("fulltilt", str((export.parent / "z-original.txt").resolve()))]
