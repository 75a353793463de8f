"""`hhtool config`: where the user's config file is, what it says, and which value is in force."""

from __future__ import annotations

import typer

from hhtool.cli.common import DB_OPTION, database, out
from hhtool.cli.output import printable
from hhtool.service.config import describe, write_values


def _plain(text: object) -> str:
    return printable(str(text))


def register(app: typer.Typer) -> None:
    @app.command("config")
    def config_command(
        init: bool = typer.Option(False, "--init", help="Write the values in force (database, timezone, watch, "
                                  "structures) where the config file belongs, as a file to edit."),
        force: bool = typer.Option(False, "--force", help="With --init: replace a config file that is there."),
        db: str | None = DB_OPTION,
    ) -> None:
        """Show the config file (its path, whether it is there) and the values in force, each with its source.

        The file: $HHTOOL_CONFIG, else $XDG_CONFIG_HOME/hhtool/config.toml, else ~/.config/hhtool/config.toml.

        database = "FILE": the default database (--db and $HHTOOL_DB win over it; without any,
        hhtool.duckdb in your data folder, e.g. ~/.local/share/hhtool).

        timezone = "Europe/Paris": the zone times are shown and --from/--to read in (default: the machine's).

        watch = ["FOLDER", ...]: what `import --watch` (and `import`) read when given no PATH.

        structures = "FILE": your sites' levels, forced bets and rake (docs/structures.md); --structures wins.

        In the file, ~ is the home folder; other relative paths are the config file's folder's.
        """
        if init:
            path = write_values(database(db).option, force)
            for line in (f"wrote {path}", "with the values in force (`hhtool config` shows them): edit it to change them"):
                out.print(_plain(line), markup=False, highlight=False)
            return
        view = describe(database(db).option)
        lines = [f"config file: {view.path}", f"             ({view.located_by})"]
        if not view.exists:
            lines.append("             not there: `hhtool config --init` writes the values in force")
        lines += [f"database:    {view.database.value}", f"             from {view.database.source}"]
        if view.timezone is not None:
            lines += [f"timezone:    {view.timezone.value}", f"             from {view.timezone.source}"]
        if view.watch:
            lines.append("watch:       " + view.watch[0])
            lines += [f"             {folder}" for folder in view.watch[1:]]
            lines.append("             from the config file")
        else:
            lines.append("watch:       none (`import --watch` needs a PATH)")
        if view.structures is not None:
            lines += [f"structures:  {view.structures.value}", f"             from {view.structures.source}"]
        else:
            lines.append("structures:  none (forced bets and rake no history states are assumptions)")
        for line in lines:
            out.print(_plain(line), markup=False, highlight=False)


__all__ = ["register"]
