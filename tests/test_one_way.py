"""One way to draw and one way to template (issue #35 item 8): no module of the reports or the web app
builds HTML or SVG in Python or escapes by hand (a template does both, through the one Jinja2
environment, autoescape on), and only :mod:`hhtool.reports.templating` constructs that environment."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hhtool"
#: the folders whose Python writes no markup
GUARDED = (PACKAGE / "reports", PACKAGE / "web")
#: and the CLI's writer of --out x.html (the commands' help texts may name a <placeholder>)
GUARDED_FILES = (PACKAGE / "cli" / "output.py",)
#: a tag as markup opens or closes one: "<td", "</section>", "<svg "
TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*[\s>/]")
#: style sheets and scripts held as text (no HTML in them is built from values)
ASSETS = {PACKAGE / "reports" / "dispute" / "assets.py", PACKAGE / "reports" / "dispute" / "replayer_assets.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the constants that are docstrings (they may show markup in their words)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def markup_built(source: str) -> list[str]:
    """Where ``source`` escapes by hand or writes a tag in a string (docstrings aside)."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name == "html" for alias in node.names):
            found.append(f"line {node.lineno}: import html")
        elif isinstance(node, ast.ImportFrom) and (node.module == "html" or
                                                   (node.module == "markupsafe" and
                                                    any(alias.name == "escape" for alias in node.names))):
            found.append(f"line {node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Attribute) and node.attr == "escape" and isinstance(node.value, ast.Name):
            found.append(f"line {node.lineno}: {node.value.id}.escape")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and TAG.search(node.value)):
                found.append(f"line {node.lineno}: a tag in {node.value[:40]!r}")
    return found


def test_no_module_of_the_reports_or_the_web_builds_markup() -> None:
    paths = [*(path for folder in GUARDED for path in sorted(folder.rglob("*.py"))), *GUARDED_FILES]
    found = {str(path.relative_to(PACKAGE)): hits for path in paths
             if path not in ASSETS and (hits := markup_built(path.read_text(encoding="utf-8")))}
    assert not found, found


@pytest.mark.parametrize("source", [
    "import html\n",
    "from html import escape\n",
    "from markupsafe import escape, Markup\n",
    "x = html.escape(name)\n",
    "x = f'<td>{name}</td>'\n",
    "x = '<section class=\"a\">' + name\n",
    "parts.append('</table>')\n",
])
def test_the_guard_catches_each_way_of_building_markup(source: str) -> None:
    assert markup_built(source), source


def test_a_docstring_may_name_a_tag_and_a_template_call_is_no_markup() -> None:
    assert not markup_built('"""The <section> of the page."""\nx = render("dispute/desk.html", a=1)\ny = a < b > c\n')


def test_one_place_constructs_the_template_environment() -> None:
    makers = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
              if re.search(r"\bEnvironment\(", path.read_text(encoding="utf-8"))]
    assert makers == ["reports/templating.py"]


def test_serve_renders_with_the_one_environment_and_it_escapes() -> None:
    from hhtool.reports.templating import environment
    from hhtool.web.app import Served

    served = Served(held=None, hosts=set())  # type: ignore[arg-type]  # (the templates only)
    assert served.templates is environment()
    rendered = environment().from_string("<p>{{ name }}</p>").render(name="<b>x</b>\x1b[31m")
    assert rendered == "<p>&lt;b&gt;x&lt;/b&gt;?[31m</p>"  # escaped, and the escape shown as "?"
