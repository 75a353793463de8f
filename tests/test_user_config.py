"""Issue #14: the user's config file (XDG place) names the default database and the folders
`import --watch` follows; `hhtool config` shows where it is and what is in force; a bad file is one
line naming it and the problem, exit 2. Every test runs the commands with its own XDG_CONFIG_HOME."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from hhtool.cli import app
from tests.inputs import SAMPLES
from tests.test_reliability import HHTOOL, stop_watch_after_files, table_digest

runner = CliRunner()
BOVADA = next((SAMPLES / "bovada").iterdir())


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder, an XDG config folder and data folder (where the default database goes) of the test's
    own, no $HHTOOL_DB or $HHTOOL_CONFIG, and the tests' current folder inside the home."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("HHTOOL_DB", raising=False)
    monkeypatch.delenv("HHTOOL_CONFIG", raising=False)
    (tmp_path / "home" / "work").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "home" / "work")
    return tmp_path / "home"


def write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "xdg" / "hhtool" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "80", **(env or {})})


def test_without_a_config_file_hhtool_config_says_where_it_would_be(home: Path, tmp_path: Path) -> None:
    result = run("config")
    assert result.exit_code == 0, result.output
    assert f"config file: {tmp_path / 'xdg' / 'hhtool' / 'config.toml'}" in result.output
    assert "under $XDG_CONFIG_HOME" in result.output and "not there: `hhtool config --init`" in result.output
    assert f"database:    {tmp_path / 'data' / 'hhtool' / 'hhtool.duckdb'}" in result.output
    assert "from the default (your data folder)" in result.output
    assert "watch:       none" in result.output
    assert max(len(line) for line in result.output.splitlines() if str(tmp_path) not in line) <= 80


def test_no_xdg_config_home_means_dot_config_in_the_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME")
    result = run("config")
    assert f"config file: {home / '.config' / 'hhtool' / 'config.toml'}" in result.output, result.output
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/place")  # the XDG spec: a relative one is ignored
    result = run("config")
    assert f"config file: {home / '.config' / 'hhtool' / 'config.toml'}" in result.output
    assert "not an absolute path" in result.output


def test_the_config_files_database_is_used_and_paths_resolve_against_home_and_the_files_folder(
        home: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, 'database = "dbs/poker.duckdb"\nwatch = ["~/hh", "more"]\n')
    shown = run("config")
    assert shown.exit_code == 0, shown.output
    assert f"database:    {config.parent / 'dbs' / 'poker.duckdb'}" in shown.output
    assert f"from the config file ({config})" in shown.output
    assert str(home / "hh") in shown.output and str(config.parent / "more") in shown.output
    (config.parent / "dbs").mkdir()
    imported = run("import", str(BOVADA), "--jobs", "1")
    assert imported.exit_code == 0, imported.output
    assert (config.parent / "dbs" / "poker.duckdb").exists() and not Path("hhtool.duckdb").exists()
    stats = run("stats")
    assert stats.exit_code == 0 and "player" in stats.output, stats.output


def test_db_option_and_hhtool_db_win_over_the_config_file(home: Path, tmp_path: Path) -> None:
    write_config(tmp_path, 'database = "~/configured.duckdb"\n')
    assert "from the config file" in run("config").output
    by_env = run("config", env={"HHTOOL_DB": "env.duckdb"})
    assert "database:    env.duckdb" in by_env.output and "from $HHTOOL_DB" in by_env.output
    by_option = run("--db", "option.duckdb", "config", env={"HHTOOL_DB": "env.duckdb"})
    assert "database:    option.duckdb" in by_option.output and "from --db" in by_option.output
    assert run("import", str(BOVADA), "--jobs", "1", env={"HHTOOL_DB": str(tmp_path / "env.duckdb")}).exit_code == 0
    assert (tmp_path / "env.duckdb").exists() and not (home / "configured.duckdb").exists()


def test_hhtool_config_names_another_file(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.toml"
    other.write_text('database = "/data/x.duckdb"\n', encoding="utf-8")
    result = run("config", env={"HHTOOL_CONFIG": str(other)})
    assert f"config file: {other}" in result.output and "named by $HHTOOL_CONFIG" in result.output
    assert "database:    /data/x.duckdb" in result.output
    missing = run("config", env={"HHTOOL_CONFIG": str(tmp_path / "none.toml")})
    assert missing.exit_code == 2 and "does not exist" in missing.output


@pytest.mark.parametrize(("text", "said"), [
    ('databse = "x.duckdb"\n', "unknown key 'databse' (did you mean 'database'?"),
    ("database = x.duckdb\n", "is not valid TOML: Invalid value (at line 1"),
    ("database = 3\n", "database must be a file name in quotes"),
    ('database = ""\n', "database must be a file name in quotes"),
    ("watch = [1, 2]\n", "watch must be a list of folders in quotes"),
    ("[watch]\nfolders = []\n", "watch must be a list of folders in quotes"),
])
@pytest.mark.parametrize("command", [["config"], ["stats"], ["import", "--watch"]])
def test_a_malformed_config_file_is_one_line_naming_it_exit_2(home: Path, tmp_path: Path, text: str, said: str,
                                                               command: list[str]) -> None:
    config = write_config(tmp_path, text)
    result = run(*command)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: config file {config}") and said in lines[0], result.output
    assert "Traceback" not in result.output


def test_a_config_file_that_is_not_text_is_one_line(home: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, "")
    config.write_bytes(b"\xff\xfe\x00garbage")
    result = run("config")
    assert result.exit_code == 2 and f"config file {config} is not UTF-8 text" in result.output


def test_a_bad_config_file_does_not_stop_a_command_that_names_its_database(home: Path, tmp_path: Path) -> None:
    write_config(tmp_path, "database = [\n")
    assert run("import", str(BOVADA), "--db", str(tmp_path / "x.duckdb"), "--jobs", "1").exit_code == 0


def test_config_init_writes_the_values_in_force_once(home: Path, tmp_path: Path) -> None:
    result = run("config", "--init", env={"TZ": "America/Chicago"})
    config = tmp_path / "xdg" / "hhtool" / "config.toml"
    assert result.exit_code == 0 and f"wrote {config}" in result.output, result.output
    written = tomllib.loads(config.read_text(encoding="utf-8"))  # real values, not commented lines
    assert written == {"database": str(tmp_path / "data" / "hhtool" / "hhtool.duckdb"), "timezone": "America/Chicago",
                       "watch": []}
    shown = run("config", env={"TZ": "Asia/Tokyo"})  # the file's values are in force now, whatever the machine's
    assert shown.exit_code == 0 and "not there" not in shown.output, shown.output
    assert "timezone:    America/Chicago" in shown.output and "from the config file" in shown.output
    again = run("config", "--init")
    assert again.exit_code == 2 and "already exists" in again.output and "--force" in again.output
    config.write_text('database = "mine.duckdb"\nwatch = ["~/hh"]\ntimezone = "Europe/Paris"\n', encoding="utf-8")
    assert run("--db", "other.duckdb", "config", "--init", "--force").exit_code == 0
    assert tomllib.loads(config.read_text(encoding="utf-8")) == {
        "database": str(home / "work" / "other.duckdb"), "timezone": "Europe/Paris", "watch": [str(home / "hh")]}


def test_the_default_database_is_in_the_data_folder_and_every_command_finds_it(home: Path, tmp_path: Path) -> None:
    """`stats` from another folder found "no database at hhtool.duckdb yet" (#35 item 4)."""
    assert run("import", str(BOVADA), "--jobs", "1").exit_code == 0
    assert (tmp_path / "data" / "hhtool" / "hhtool.duckdb").exists() and not Path("hhtool.duckdb").exists()
    os.chdir(home)
    stats = run("stats")
    assert stats.exit_code == 0 and "Seat+" in stats.output, stats.output


def test_a_timezone_that_is_no_zone_is_one_line_naming_the_key(home: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, 'timezone = "Mars/Olympus"\n')
    for command in (["config"], ["hands"], ["sessions"]):
        result = run(*command)
        assert result.exit_code == 2, (command, result.output)
        assert result.output.strip() == (f"error: config file {config}: timezone 'Mars/Olympus' is not a time zone "
                                          "(an IANA name such as 'Europe/Paris' or 'America/New_York')"), result.output


def test_import_without_a_path_reads_the_watch_folders(home: Path, tmp_path: Path) -> None:
    folder = home / "histories"
    folder.mkdir()
    shutil.copy(BOVADA, folder)
    none = run("import")
    assert none.exit_code == 2 and "nothing to import: give PATH" in none.output and "config --init" in none.output
    write_config(tmp_path, 'watch = ["~/histories"]\n')
    result = run("import", "--jobs", "1", "--db", str(tmp_path / "w.duckdb"))
    assert result.exit_code == 0 and "4 hands found = 4 stored" in result.output, result.output
    write_config(tmp_path, "watch = []\n")
    empty = run("import")
    assert empty.exit_code == 2 and "in the config file" in empty.output


@pytest.mark.slow
def test_import_watch_without_a_path_watches_the_config_folders(home: Path, tmp_path: Path) -> None:
    """A subprocess, as a user runs it: it says which folder it watches, reports the file copied in,
    and Ctrl-C stops it with the hands stored in the config file's database."""
    folder = home / "live"
    folder.mkdir()
    db = tmp_path / "live.duckdb"
    write_config(tmp_path, f'database = "{db}"\nwatch = ["~/live"]\n')
    process = subprocess.Popen([*HHTOOL, "import", "--watch", "--interval", "0.1"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stderr is not None
    said = process.stderr.readline()
    assert f"watching {folder} every" in said, said
    shutil.copy(BOVADA, folder)
    stdout, stderr = stop_watch_after_files(process, {BOVADA.name})
    assert process.returncode == 130 and "Traceback" not in stderr, stderr  # Ctrl-C
    assert "stopped: 4 hands found = 4 stored" in stdout, stdout
    assert table_digest(str(db))[0][0] == 4
