"""The import graph points one way: model <- sites, replay, store, equity; replay and store <- reports <- service
<- cli and web. The store imports nothing of the replay: it stores what the replay decided, and decides nothing.

Every module's imports (top level, inside functions and under TYPE_CHECKING alike) are read with
``ast``; a rule names the modules it governs and the hhtool modules they may import. A break that
today's code makes outside the service and CLI is listed in ALLOWED_FOR_NOW with its reason, and an
entry no longer needed fails too, so the list only shrinks.

The SQL lives in the store: a SQL statement in a module of reports, service, web, cli or ingest fails
(tests/test_service_sql.py's detector: docstrings and a command's help text are words, not SQL) unless
SQL_FOR_NOW names the module with its reason; it names none of the reports, the service, web or cli.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hhtool"

#: the domain modules below the model's users: the model and every layer may import them
DOMAIN_VALUES = ("hhtool.money", "hhtool.evaluation", "hhtool.clock")

#: the read step of the import: bytes → lines, and where the bytes come from
READ_STEP = ("hhtool.ingest.reader", "hhtool.ingest.sources")

#: what the CLI may import besides hhtool.service and itself, and why
CLI_RENDERING = {
    "hhtool": "the package root, for --version (it holds only __version__)",
    "hhtool.reports.dispute": "render: a dispute report value as text, JSON or a web page; the service builds it",
    "hhtool.reports.show": "render_text: a described hand as coloured terminal lines (`show`); the service describes it",
    "hhtool.reports.json_safe": "dumps: the one rule for JSON on a terminal (C1 controls, U+2028/9 escaped)",
    "hhtool.reports.printable": "printable: the one rule for a name or note on a terminal (controls, bidi marks as ?)",
    "hhtool.reports.templating": "render: a report's table as a page (--out x.html), by the one template environment",
}

#: what the web app (`hhtool serve`) may import besides hhtool.service and itself, and why
WEB_RENDERING = {
    "hhtool.reports.dispute": "render: the dispute report page of a hand; the service builds the report",
    "hhtool.reports.dispute.replayer": "replayer_fragment: a report's replayer, drawn by the dispute page's script",
    "hhtool.reports.dispute.assets": "CSS and JS: the dispute page's replayer style and script, served as files",
    "hhtool.reports.dispute.html": "streets_section: the dispute page's street-by-street table (every value escaped there)",
    "hhtool.reports.templating": "environment: the one Jinja2 environment of every page (autoescape, names as printable)",
    "hhtool.reports.chart": "svg: the one chart definition, drawing the graph page's series as `hhtool graph` draws its file",
}

#: the all-in EV (issue #36): in the equity package, it splits the pots by the replay's own rule
ALLIN_EV = "hhtool.equity.allin"

#: the one command that starts the web app
SERVE = "hhtool.cli.serve_cmd"

#: (module, imported): a break of the rules by code outside this task, and why it stays for now (none left: the
#: store imported the reports' filters and starting-hand groups until they moved into it, #37)
ALLOWED_FOR_NOW: dict[tuple[str, str], str] = {
}

Graph = dict[str, set[str]]


def module_of(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:  # relative: from the module's package, one level up per dot after the first
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    found = {base}
    found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)  # a submodule
    return found


def import_graph(package: Path = PACKAGE) -> Graph:
    """Each hhtool module and the hhtool modules it imports anywhere in its text."""
    paths = sorted(package.rglob("*.py"))
    known = {module_of(path, package) for path in paths}
    graph: Graph = {}
    for path in paths:
        module = module_of(path, package)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            names |= _imported(node, module, path.name == "__init__.py", known)
        graph[module] = {name for name in names if within(name, "hhtool")} - {module}
    return graph


def within(name: str, *prefixes: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


@dataclass(frozen=True)
class Rule:
    """Modules ``governs`` chooses may import only what ``allows`` accepts (of hhtool's modules)."""

    name: str
    governs: Callable[[str], bool]
    allows: Callable[[str, str], bool]  # (importer, imported)


def _is_command(name: str) -> bool:
    return within(name, "hhtool.cli") and name.rsplit(".", 1)[-1].endswith("_cmd")


RULES = (
    Rule("the model imports nothing of hhtool but the domain values",
         lambda m: m == "hhtool.model", lambda m, i: within(i, *DOMAIN_VALUES)),
    Rule("sites and replay import only the model, the domain values and their own package",
         lambda m: within(m, "hhtool.sites", "hhtool.replay"),
         lambda m, i: within(i, "hhtool.model", *DOMAIN_VALUES) or within(i, ".".join(m.split(".")[:2]))),
    Rule("the domain values import nothing of hhtool but the model",
         lambda m: m in DOMAIN_VALUES, lambda m, i: i == "hhtool.model"),
    Rule("the store imports only the model, the domain values and itself (it stores and decides nothing)",
         lambda m: within(m, "hhtool.store"), lambda m, i: within(i, "hhtool.model", "hhtool.store", *DOMAIN_VALUES)),
    Rule("the reports import only the model, the domain values, the replay, the store and themselves",
         lambda m: within(m, "hhtool.reports"),
         lambda m, i: within(i, "hhtool.model", "hhtool.replay", "hhtool.store", "hhtool.reports", *DOMAIN_VALUES)),
    Rule("the read step imports only the model, the domain values and itself",
         lambda m: m in READ_STEP, lambda m, i: within(i, "hhtool.model", *READ_STEP, *DOMAIN_VALUES)),
    Rule("the import imports only the layers below it (model, sites, replay, equity, store, reports) and itself",
         lambda m: within(m, "hhtool.ingest"),
         lambda m, i: within(i, "hhtool.model", "hhtool.sites", "hhtool.replay", "hhtool.equity", "hhtool.store",
                             "hhtool.reports", "hhtool.ingest", *DOMAIN_VALUES)),
    Rule("the simulator imports only the model, the domain values, the replay's codes, the PHH writer and itself",
         lambda m: within(m, "hhtool.simulate"),
         lambda m, i: within(i, "hhtool.model", "hhtool.replay.codes", "hhtool.reports.phh_writer", "hhtool.simulate",
                             *DOMAIN_VALUES)),
    Rule("the equity engine imports only the model, the domain values (the hand values) and itself",
         lambda m: within(m, "hhtool.equity") and m != ALLIN_EV,
         lambda m, i: within(i, "hhtool.model", "hhtool.equity", *DOMAIN_VALUES)),
    Rule("the all-in EV imports only the model, the domain values, the replay (its one pot split) and the engine",
         lambda m: m == ALLIN_EV, lambda m, i: within(i, "hhtool.model", "hhtool.replay", "hhtool.equity", *DOMAIN_VALUES)),
    Rule("the service never imports the CLI",
         lambda m: within(m, "hhtool.service"), lambda m, i: not within(i, "hhtool.cli")),
    Rule("the CLI imports only the service, itself, the rendering modules named and (`serve`) the web app",
         lambda m: within(m, "hhtool.cli"),
         lambda m, i: (within(i, "hhtool.service", "hhtool.cli") or i in CLI_RENDERING
                       or (m == SERVE and within(i, "hhtool.web")))),
    Rule("the web app imports only the service, itself and the rendering modules named",
         lambda m: within(m, "hhtool.web"), lambda m, i: within(i, "hhtool.service", "hhtool.web") or i in WEB_RENDERING),
    Rule("a command imports no other command",
         _is_command, lambda m, i: not _is_command(i) or i == m),
    Rule("nothing but the entry point imports the CLI",
         lambda m: not within(m, "hhtool.cli", "hhtool.__main__"), lambda m, i: not within(i, "hhtool.cli")),
    Rule("nothing below the CLI and the web app imports the service or the web app",
         lambda m: not within(m, "hhtool.cli", "hhtool.web", "hhtool.service", "hhtool.__main__"),
         lambda m, i: not within(i, "hhtool.service", "hhtool.web")),
    Rule("the service never imports the web app",
         lambda m: within(m, "hhtool.service"), lambda m, i: not within(i, "hhtool.web")),
)


def breaks(graph: Graph, rules: tuple[Rule, ...] = RULES) -> dict[tuple[str, str], list[str]]:
    """(module, imported) -> the rules that import breaks."""
    found: dict[tuple[str, str], list[str]] = {}
    for module, imported in graph.items():
        for rule in rules:
            if rule.governs(module):
                for name in sorted(imported):
                    if not rule.allows(module, name):
                        found.setdefault((module, name), []).append(rule.name)
    return found


def test_the_import_graph_points_one_way() -> None:
    found = breaks(import_graph())
    unexpected = {edge: rules for edge, rules in found.items() if edge not in ALLOWED_FOR_NOW}
    assert not unexpected, "\n".join(f"{m} imports {i}: breaks {'; '.join(r)}" for (m, i), r in sorted(unexpected.items()))


def test_every_exception_is_still_needed() -> None:
    found = breaks(import_graph())
    stale = sorted(edge for edge in ALLOWED_FOR_NOW if edge not in found)
    assert not stale, f"no longer needed: remove from ALLOWED_FOR_NOW: {stale}"


def test_every_web_rendering_module_is_imported_by_the_web_app() -> None:
    graph = import_graph()
    imported = set().union(*(names for module, names in graph.items() if within(module, "hhtool.web")))
    assert set(WEB_RENDERING) <= set(graph)
    assert set(WEB_RENDERING) <= imported, "a rendering module the web app no longer imports: drop it from WEB_RENDERING"


def test_every_rendering_module_exists_and_is_imported_by_the_cli() -> None:
    graph = import_graph()
    imported = set().union(*(names for module, names in graph.items() if within(module, "hhtool.cli")))
    assert set(CLI_RENDERING) <= set(graph) | {"hhtool"}
    assert set(CLI_RENDERING) <= imported, "a rendering module the CLI no longer imports: drop it from CLI_RENDERING"


def test_the_graph_is_read_from_every_kind_of_import(tmp_path: Path) -> None:
    """Top level, relative, inside a function, a submodule named in ``from package import``."""
    package = tmp_path / "hhtool"
    (package / "cli").mkdir(parents=True)
    (package / "store").mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "model.py").write_text("import hhtool.store\n", encoding="utf-8")
    (package / "store" / "__init__.py").write_text("from . import load\n", encoding="utf-8")
    (package / "store" / "load.py").write_text("def f():\n    from hhtool.cli import common\n", encoding="utf-8")
    (package / "cli" / "__init__.py").write_text("", encoding="utf-8")
    (package / "cli" / "common.py").write_text("from ..store.load import f\n", encoding="utf-8")
    graph = import_graph(package)
    assert graph["hhtool.model"] == {"hhtool.store"}
    assert graph["hhtool.store"] == {"hhtool.store.load"}
    assert graph["hhtool.store.load"] == {"hhtool.cli", "hhtool.cli.common"}
    assert graph["hhtool.cli.common"] == {"hhtool.store.load"}


@pytest.mark.parametrize(("module", "imported", "rule"), [
    ("hhtool.model", "hhtool.replay", "the model"),
    ("hhtool.sites.fulltilt", "hhtool.store", "sites and replay"),
    ("hhtool.replay.engine", "hhtool.sites.kit.base", "sites and replay"),
    ("hhtool.reports.stats", "hhtool.service.filters", "the reports import only"),
    ("hhtool.reports.stats", "hhtool.ingest.loader", "the reports import only"),
    ("hhtool.reports.show", "hhtool.sites", "the reports import only"),
    ("hhtool.store.load", "hhtool.cli.common", "the store imports only"),
    ("hhtool.store", "hhtool.ingest.accounting", "the store imports only"),
    ("hhtool.store.load", "hhtool.sites", "the store imports only"),
    ("hhtool.money", "hhtool.store", "the domain values"),
    ("hhtool.evaluation", "hhtool.replay.codes", "the domain values"),
    ("hhtool.ingest.reader", "hhtool.store", "the read step"),
    ("hhtool.ingest.sources", "hhtool.ingest.loader", "the read step"),
    ("hhtool.ingest.loader", "hhtool.simulate", "the import imports only"),
    ("hhtool.simulate.dealer", "hhtool.replay.engine", "the simulator imports only"),
    ("hhtool.simulate.dealer", "hhtool.store", "the simulator imports only"),
    ("hhtool.equity.deals", "hhtool.replay.engine", "the equity engine imports only"),
    ("hhtool.equity.spot", "hhtool.store", "the equity engine imports only"),
    ("hhtool.equity", "hhtool.service.equity", "the equity engine imports only"),
    ("hhtool.service.audit", "hhtool.cli.output", "the service never"),
    ("hhtool.cli.stats_cmd", "hhtool.store", "the CLI imports only"),
    ("hhtool.cli.audit_cmd", "hhtool.cli.import_cmd", "a command imports no other"),
    ("hhtool.ingest.loader", "hhtool.cli.common", "nothing but the entry point"),
    ("hhtool.ingest.loader", "hhtool.service.stats_cache", "nothing below the CLI"),
    ("hhtool.web.pages", "hhtool.store", "the web app imports only"),
    ("hhtool.web.pages", "hhtool.cli.common", "the web app imports only"),
    ("hhtool.reports.stats", "hhtool.web.app", "nothing below the CLI and the web app"),
    ("hhtool.cli.stats_cmd", "hhtool.web.app", "the CLI imports only"),
    ("hhtool.service.stores", "hhtool.web.app", "the service never imports the web app"),
    ("hhtool.store.forced_bets", "hhtool.replay.forced_bets", "the store imports only"),
    ("hhtool.store.tables", "hhtool.replay", "the store imports only"),
    ("hhtool.store.player_facts_cache", "hhtool.reports.stats", "the store imports only"),
    ("hhtool.store.findings", "hhtool.service.verdicts", "the store imports only"),
    ("hhtool.store.stored_copies", "hhtool.cli.common", "the store imports only"),
    ("hhtool.equity.allin", "hhtool.store", "the all-in EV imports only"),
    ("hhtool.equity.allin", "hhtool.reports.show", "the all-in EV imports only"),
])
def test_each_rule_catches_its_break(module: str, imported: str, rule: str) -> None:
    """A break of each rule (every rule has one here: see the next test) is found, and by that rule."""
    found = breaks({module: {imported}})
    assert any(name.startswith(rule) for name in found.get((module, imported), [])), found


@pytest.mark.parametrize(("module", "imported"), [
    ("hhtool.model", "hhtool.money"),
    ("hhtool.replay.engine", "hhtool.replay.pots"),
    ("hhtool.sites.fulltilt", "hhtool.evaluation"),
    ("hhtool.reports.stats", "hhtool.store"),
    ("hhtool.store.forced_bets", "hhtool.store.tables"),
    ("hhtool.store.findings", "hhtool.model"),
    ("hhtool.ingest.cross_hand", "hhtool.replay.table_pass"),
    ("hhtool.ingest.cross_hand", "hhtool.store.forced_bets"),
    ("hhtool.ingest.allin_step", "hhtool.equity.allin"),
    ("hhtool.equity.allin", "hhtool.replay.pots"),
    ("hhtool.equity.fast_eval", "hhtool.evaluation"),
    ("hhtool.service.equity", "hhtool.equity.deals"),
    ("hhtool.service.audit", "hhtool.ingest.loader"),
    ("hhtool.cli.audit_cmd", "hhtool.cli.output"),
    ("hhtool.cli.show_cmd", "hhtool.reports.show"),
    ("hhtool.cli.serve_cmd", "hhtool.web.app"),
    ("hhtool.web.hand", "hhtool.reports.dispute"),
    ("hhtool.web.pages", "hhtool.service.reports"),
    ("hhtool.__main__", "hhtool.cli"),
])
def test_the_legal_imports_pass(module: str, imported: str) -> None:
    assert breaks({module: {imported}}) == {}


def test_every_rule_has_a_break_that_it_catches() -> None:
    """So that no rule is one that cannot fail: each is named by some case of the test above."""
    cases = next(mark for mark in test_each_rule_catches_its_break.pytestmark if mark.name == "parametrize").args[1]
    named = {rule for _, _, rule in cases}
    untested = [rule.name for rule in RULES if not any(rule.name.startswith(prefix) for prefix in named)]
    assert not untested, f"no break case for: {untested}"


# --- where the SQL lives: in hhtool/store, nowhere else (#37) -------------------------------------------

#: the layers above the store that write no SQL: they call the store's queries
SQL_FREE_LAYERS = ("reports", "service", "web", "cli", "ingest")

#: modules of those layers that still hold a SQL statement (tests/test_service_sql.py's detector), and why
SQL_FOR_NOW: dict[str, str] = {}


def sql_outside_the_store(package: Path = PACKAGE) -> dict[str, list[tuple[int, str]]]:
    """Each module of the SQL-free layers holding a SQL statement, with where."""
    from tests.test_service_sql import sql_in

    found: dict[str, list[tuple[int, str]]] = {}
    for layer in SQL_FREE_LAYERS:
        for path in sorted((package / layer).rglob("*.py")):
            lines = sql_in(path.read_text(encoding="utf-8"), str(path))
            if lines:
                found[module_of(path, package)] = lines
    return found


def test_the_sql_lives_in_the_store() -> None:
    found = {module: lines for module, lines in sql_outside_the_store().items() if module not in SQL_FOR_NOW}
    assert not found, "SQL outside hhtool/store (move it into a store query module):\n" + "\n".join(
        f"  {module}:{line}: {text}" for module, lines in found.items() for line, text in lines)


def test_every_sql_exception_is_still_needed() -> None:
    found = sql_outside_the_store()
    stale = sorted(module for module in SQL_FOR_NOW if module not in found)
    assert not stale, f"no SQL left: remove from SQL_FOR_NOW: {stale}"


def test_sql_in_each_layer_above_the_store_is_found(tmp_path: Path) -> None:
    """The check at work on a package tree: a statement in any of the layers is named, the store's is not."""
    package = tmp_path / "hhtool"
    for layer in (*SQL_FREE_LAYERS, "store"):
        (package / layer).mkdir(parents=True)
        (package / layer / "query.py").write_text(
            'def f(store):\n    return store.run("DELETE FROM notes WHERE id = ?", [1])\n', encoding="utf-8")
    (package / "web" / "clean.py").write_text('"""SELECT 1 FROM hands, in a docstring."""\n', encoding="utf-8")
    (package / "cli" / "help.py").write_text('import typer\nQ = typer.Argument(..., help="One SELECT ... FROM, read-only")\n',
                                             encoding="utf-8")
    found = sql_outside_the_store(package)
    assert sorted(found) == sorted(f"hhtool.{layer}.query" for layer in SQL_FREE_LAYERS)
    assert found["hhtool.ingest.query"] == [(2, "DELETE FROM notes WHERE id = ?")]
