"""Start-up stays light: `hhtool --help`, every command's --help and shell completion load none of
DuckDB, Polars, PyArrow, Lark or the site parsers (and their grammars); the top-level help not the
replay either. Each case runs the command in a fresh interpreter (the test process has loaded
everything long ago) and reads which modules it ended with, loaded: the store's package (the filters'
SQL is the store's) puts DuckDB in ``sys.modules`` as a module that loads on first use
(importlib.util.LazyLoader), which costs nothing until a command opens the store, so such a module is
not counted. No timings: what is imported is what would make start-up slow again."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hhtool.cli import app

#: packages whose loading a help or a completion must not cost (with their submodules)
HEAVY = ("duckdb", "polars", "pyarrow", "lark", "numpy")
#: the site parsers and their grammars: below the registry (hhtool.sites), which names the sites alone
PARSERS = "hhtool.sites."

#: the names of the modules of ``sys.modules`` that are loaded: a module a LazyLoader made is there from its
#: import on, but it runs (and is a plain module) only once an attribute of it is used; type() tells it
#: without using one (isinstance would ask the module its __class__, and load it)
LOADED = """
import importlib.util

def loaded(modules):
    return sorted(name for name, module in modules.items() if not issubclass(type(module), importlib.util._LazyModule))
"""

#: run the command line as `python -m hhtool ARGS` would, then write the names of the modules loaded
PROBE = LOADED + """
import json, runpy, sys
listing, args = sys.argv[1], json.loads(sys.argv[2])
sys.argv = ["hhtool", *args]
try:
    runpy.run_module("hhtool", run_name="__main__")
except SystemExit:
    pass
with open(listing, "w") as out:
    json.dump(loaded(dict(sys.modules)), out)
"""

COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def loaded_modules(tmp_path: Path, args: list[str], env: dict[str, str] | None = None) -> list[str]:
    """The modules a fresh ``hhtool ARGS`` has loaded when it ends."""
    listing = tmp_path / "modules.json"
    subprocess.run([sys.executable, "-c", PROBE, str(listing), json.dumps(args)], env={**os.environ, **(env or {})},
                   cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=False)
    return list(json.loads(listing.read_text(encoding="utf-8")))


def heavy(modules: list[str], also: tuple[str, ...] = ()) -> list[str]:
    """The modules of ``modules`` in HEAVY (or ``also``) or among the site parsers."""
    packages = (*HEAVY, *also)
    return [name for name in modules
            if name.startswith(PARSERS) or any(name == p or name.startswith(p + ".") for p in packages)]


def test_the_top_level_help_loads_nothing_heavy_nor_the_replay(tmp_path: Path) -> None:
    modules = loaded_modules(tmp_path, ["--help"])
    assert "hhtool.cli" in modules  # the probe ran the command line
    assert heavy(modules, ("hhtool.replay", "hhtool.model")) == []


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_a_commands_help_loads_nothing_heavy(tmp_path: Path, command: str) -> None:
    modules = loaded_modules(tmp_path, [command, "--help"])
    assert f"hhtool.cli.{command}_cmd" in modules
    assert heavy(modules) == []


@pytest.mark.parametrize("words", [
    "hhtool stats --site p",  # the sites, from the registry without its parsers
    "hhtool show 1 --rules w",  # the profiles (the replay's, filled in late)
    "hhtool st",
])
def test_completion_loads_nothing_heavy(tmp_path: Path, words: str) -> None:
    env = {"_HHTOOL_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    modules = loaded_modules(tmp_path, [], env)
    assert "hhtool.cli" in modules
    assert heavy(modules) == []


def test_the_probe_sees_what_a_command_that_runs_loads(tmp_path: Path) -> None:
    """The legal counterpart: a command at work loads its libraries, and the probe tells."""
    modules = loaded_modules(tmp_path, ["sql", "SELECT 1", "--db", ":memory:"])
    assert {"duckdb", "polars"} <= set(heavy(modules))


def test_the_help_imports_the_store_without_loading_duckdb(tmp_path: Path) -> None:
    """The store's package is imported at start-up (the filters), DuckDB with it as a module loaded on first
    use: the probe counts it only once loaded, as the command above loads it."""
    modules = loaded_modules(tmp_path, ["--help"])
    assert {"hhtool.store", "hhtool.store.filters"} <= set(modules)
    assert "duckdb" not in modules


def test_a_module_loaded_on_first_use_counts_once_used(tmp_path: Path) -> None:
    """The probe's check on a module of its own made by a LazyLoader: left out before an attribute of it is
    used, counted after."""
    (tmp_path / "hhtool_probe_lazy.py").write_text("VALUE = 1\n", encoding="utf-8")
    namespace: dict[str, object] = {}
    exec(LOADED, namespace)
    loaded = namespace["loaded"]
    assert callable(loaded)
    spec = importlib.util.spec_from_file_location("hhtool_probe_lazy", tmp_path / "hhtool_probe_lazy.py")
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert loaded({"hhtool_probe_lazy": module, "json": json}) == ["json"]
    assert module.VALUE == 1
    assert loaded({"hhtool_probe_lazy": module, "json": json}) == ["hhtool_probe_lazy", "json"]


@pytest.mark.slow
def test_show_loads_no_polars_pyarrow_nor_lark(tmp_path: Path, sample_hand: tuple[Path, str]) -> None:
    """`show` needs DuckDB and the replay, not the frames, Arrow or the parsers."""
    db, hand_id = sample_hand
    modules = loaded_modules(tmp_path, ["show", hand_id, "--db", str(db)])
    assert {"duckdb", "hhtool.replay", "hhtool.reports.show"} <= set(modules)  # it showed the hand
    assert [name for name in heavy(modules) if not name.startswith("duckdb")] == []


@pytest.fixture(scope="module")
def sample_hand(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A small store (the PokerStars samples) and the id of one of its hands."""
    db = tmp_path_factory.mktemp("startup") / "small.duckdb"
    history = Path(__file__).resolve().parents[1] / "sample_histories" / "pokerstars"
    runner = CliRunner()
    imported = runner.invoke(app, ["import", str(history), "--db", str(db), "-q"])
    assert imported.exit_code == 0, imported.output
    listed = runner.invoke(app, ["hands", "--db", str(db), "--format", "json", "--limit", "1"])
    assert listed.exit_code == 0, listed.output
    return db, str(json.loads(listed.stdout)[0]["hand_id"])


def test_the_sites_named_without_loading_are_the_parsers_registered() -> None:
    """The help's site list (module names, nothing imported) is the registry's: every site module has
    its parser named after it, and every other module of hhtool.sites is a declared helper."""
    from hhtool.sites import all_parsers, site_names

    assert site_names() == tuple(parser.name for parser in all_parsers())
    assert "pokerstars" in site_names() and "lines" not in site_names()
