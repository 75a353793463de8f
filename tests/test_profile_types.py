"""A rule profile's text parameters are typed with the values they allow (``Literal``), and everything
that lists or checks those values derives from the types: :data:`hhtool.replay.profiles.CHOICES`, the
check of a profile built in code or read from a TOML file, and what the command line says of a bad one."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Literal, get_args, get_origin, get_type_hints

import pytest
from typer.testing import CliRunner

from hhtool.cli import app
from hhtool.replay.profiles import CHOICES, RuleProfile
from tests.inputs import SAMPLES

runner = CliRunner()
HINTS = get_type_hints(RuleProfile)
#: the text fields that are not rule parameters (free text)
FREE_TEXT = {"name", "source"}


def test_every_text_parameter_is_typed_with_its_choices() -> None:
    text_fields = [f.name for f in fields(RuleProfile) if HINTS[f.name] is str]
    assert set(text_fields) == FREE_TEXT
    literal = {f.name: get_args(HINTS[f.name]) for f in fields(RuleProfile) if get_origin(HINTS[f.name]) is Literal}
    assert literal == CHOICES
    assert len(CHOICES) == 20


@pytest.mark.parametrize("name", sorted(CHOICES))
def test_a_value_outside_the_type_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match=f"{name} = 'nonsense'; allowed: {', '.join(CHOICES[name])}"):
        RuleProfile(**{name: "nonsense"})  # type: ignore[arg-type]  # the point: a value the type does not allow


def test_the_command_line_names_the_allowed_values_of_a_bad_toml_profile(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "pokerstars"\nodd_unit_hi_lo = "middle"\n')
    history = next(iter(sorted((SAMPLES / "pokerstars").glob("*.txt"))))
    result = runner.invoke(app, ["audit", str(history), "--db", ":memory:", "--rules", str(bad)],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 2, result.output
    assert "odd_unit_hi_lo = 'middle'" in result.output and "allowed: high, low" in result.output, result.output
    assert "Traceback" not in result.output
