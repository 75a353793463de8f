"""Issue #27: the hand filter's options (hhtool.cli.filter_options) and a list's options
(hhtool.cli.listing) are declared once; every command that offers them lists them alike, where it
declares them, and gets what was given to them (hhtool.cli.option_group)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.cli.filter_options import FILTERS, HandFilterOptions, hand_filter_options

runner = CliRunner()
EIGHTY = {"COLUMNS": "80", "NO_COLOR": "1"}
ALL = ["--player", "--site", "--stakes", "--from", "--to", "--game", "--table-size"]


def declared(command: str) -> list[tuple[str, str]]:
    """(long option name, help) of each option of ``command``, in the order its --help lists them."""
    group = typer.main.get_command(app)
    params = group.commands[command].params  # type: ignore[attr-defined]
    return [(next(opt for opt in param.opts if opt.startswith("--")), param.help or "") for param in params]


@pytest.mark.parametrize(("command", "before", "offered", "after"), [
    ("hands", None, ALL, "--verdict"),
    ("sessions", None, ALL, "--gap"),
    ("stats", None, ALL, "--min-hands"),
    ("graph", "--x", ALL[1:], "--db"),
    ("tournaments", None, ["--player", "--site", "--from", "--to"], "--format"),
])
def test_each_command_lists_its_filter_options_together_where_it_declares_them(
        command: str, before: str | None, offered: list[str], after: str) -> None:
    names = [name for name, _ in declared(command)]
    start = names.index(offered[0])
    assert names[start:start + len(offered)] == offered, names
    assert (names[start - 1] == before) if before else start == 0, names
    assert names[start + len(offered)] == after, names
    shown = runner.invoke(app, [command, "--help"], env=EIGHTY)
    assert shown.exit_code == 0, shown.output
    listed = re.findall(r"^│ [ *]? {0,3}(--[a-z-]+)", shown.output, flags=re.MULTILINE)
    assert [name for name in listed if name in offered] == offered, listed


def test_a_filter_option_reads_the_same_in_every_command() -> None:
    helps: dict[str, set[str]] = {}
    for command in ("hands", "sessions", "stats", "graph", "tournaments"):
        for name, text in declared(command):
            if name in ALL and (command, name) != ("graph", "--player"):  # graph's own: whose winnings
                helps.setdefault(name, set()).add(text)
    assert set(helps) == set(ALL)
    assert all(len(texts) == 1 for texts in helps.values()), helps
    assert helps["--table-size"] == {"Only tables of this many seats, e.g. 8 (from 2 to 10)."}


def test_tournaments_offers_no_stakes(pokerstars_samples_store: Path) -> None:
    refused = runner.invoke(app, ["tournaments", "--stakes", "1/2", "--db", str(pokerstars_samples_store)])
    assert refused.exit_code == 2
    assert "No such option: --stakes" in refused.output


@pytest.mark.parametrize("command", [["hands"], ["sessions"], ["stats"], ["tournaments"],
                                     ["graph", "--out", "never.svg"]])
def test_the_values_reach_the_filter(command: list[str], pokerstars_samples_store: Path, tmp_path: Path) -> None:
    bad_day = runner.invoke(app, [*command, "--from", "2020-13-01", "--db", str(pokerstars_samples_store)])
    assert bad_day.exit_code == 2, bad_day.output
    assert "--from wants a date as YYYY-MM-DD, not '2020-13-01'" in bad_day.output
    assert not (tmp_path / "never.svg").exists()


def test_hands_filters_by_the_values_given(pokerstars_samples_store: Path) -> None:
    every = runner.invoke(app, ["hands", "--limit", "0", "--format", "csv", "--db", str(pokerstars_samples_store)])
    assert every.exit_code == 0, every.output
    none_before = runner.invoke(app, ["hands", "--to", "1999-12-31", "--limit", "0", "--format", "csv",
                                      "--db", str(pokerstars_samples_store)])
    assert none_before.exit_code == 0, none_before.output
    assert len(every.output.splitlines()) > 1
    assert len(none_before.output.splitlines()) <= 1, none_before.output


@pytest.mark.parametrize(("command", "sort_default"), [("hands", "date"), ("sessions", "start")])
def test_the_list_commands_list_their_list_options_together_before_db(command: str, sort_default: str) -> None:
    listed = declared(command)
    names = [name for name, _ in listed]
    start = names.index("--sort")
    assert names[start:] == ["--sort", "--desc", "--limit", "--columns", "--all", "--format", "--out", "--db"], names
    assert listed[start][1].endswith(f"Default: {sort_default}.")


def test_the_list_options_reach_the_list(pokerstars_samples_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "two.csv"
    written = runner.invoke(app, ["hands", "--sort", "pot", "--asc", "--limit", "2", "--out", str(out),
                                  "--db", str(pokerstars_samples_store)])
    assert written.exit_code == 0, written.output
    rows = out.read_text().splitlines()
    assert len(rows) == 3, rows
    pot = rows[0].split(",").index("pot")
    assert int(rows[1].split(",")[pot]) <= int(rows[2].split(",")[pot])
    shown = runner.invoke(app, ["sessions", "--columns", "start,hands", "--limit", "1",
                                "--db", str(pokerstars_samples_store)], env=EIGHTY)
    assert shown.exit_code == 0, shown.output
    header = shown.output.splitlines()[0].split()
    assert header == ["start", "hands"], shown.output


def test_the_decorator_puts_the_options_in_place_and_hands_over_one_value() -> None:
    received: list[HandFilterOptions] = []
    toy = typer.Typer(add_completion=False)

    @toy.command()
    @hand_filter_options("site", "to", "table-size")
    def command(first: str = typer.Option("a", "--first"), filters: HandFilterOptions = FILTERS,
                last: int = typer.Option(0, "--last")) -> None:
        """A toy."""
        received.append(filters)
        typer.echo(f"{first} {last}")

    shown = runner.invoke(toy, ["--help"], env=EIGHTY)
    assert re.findall(r"^│ +(--[a-z-]+)", shown.output, flags=re.MULTILINE)[:5] == [
        "--first", "--site", "--to", "--table-size", "--last"], shown.output
    ran = runner.invoke(toy, ["--site", "pokerstars", "--site", "bovada", "--table-size", "8", "--last", "3"])
    assert ran.exit_code == 0, ran.output
    assert ran.output == "a 3\n"
    assert received == [HandFilterOptions(sites=["pokerstars", "bovada"], table_size=8)]
    assert runner.invoke(toy, ["--stakes", "1/2"]).exit_code == 2  # not offered


def test_the_decorator_refuses_an_unknown_option_or_a_clash() -> None:
    with pytest.raises(ValueError, match="no such filter option: limit"):
        hand_filter_options("limit")  # type: ignore[arg-type]

    def clash(filters: HandFilterOptions = FILTERS, sites: str = "") -> None:
        """Declares --site's parameter itself."""

    with pytest.raises(ValueError, match="its own sites"):
        hand_filter_options()(clash)
