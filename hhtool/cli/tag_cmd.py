"""`hhtool tag`: tag hands (`hands --tag NAME` lists them), untag them, list the tags."""

from __future__ import annotations

import typer

from hhtool.cli.annotations import tags_line
from hhtool.cli.common import DB_OPTION, database, out, site_option
from hhtool.cli.output import printable
from hhtool.service.errors import UsageError


def _said(text: str) -> None:
    out.print(printable(text), markup=False, highlight=False, crop=False, overflow="ignore")


def register(app: typer.Typer) -> None:
    @app.command("tag")
    def tag_command(
        hand_id: str | None = typer.Argument(None, metavar="HAND_ID", show_default=False,
                                             help="The hand's id, as `hhtool show` takes it; none: every tag "
                                                  "with its hands."),
        names: list[str] | None = typer.Argument(None, metavar="NAME", show_default=False,
                                                 help="Tags: lower-case letters, digits, '_' and '-' (at most 40); "
                                                      "none: the hand's tags."),
        remove: bool = typer.Option(False, "--remove", help="Take the tags off the hand instead."),
        site: str | None = site_option("The hand's site, when two sites share the id"),
        db: str | None = DB_OPTION,
    ) -> None:
        """Tag a hand (`hhtool tag HAND_ID bluff`), untag it (--remove), list a hand's tags or every tag.

        `hhtool hands --tag NAME` lists the hands with a tag.

        Tags are kept in the database (table `hand_tags`) by the hand's site and id: re-imports keep them.

        `hhtool export` writes them.
        """
        from hhtool.service.notes import add_tag, all_tags, normal_tag, remove_tag, tags_for

        if hand_id is None:
            if remove or site:
                raise UsageError("give a hand: `hhtool tag HAND_ID NAME --remove`")
            counted = all_tags(database(db))
            if not counted:
                _said("no tags yet: `hhtool tag HAND_ID NAME` tags a hand")
            wide = max((len(name) for name, _ in counted), default=0)
            for name, hands in counted:
                _said(f"{name:<{wide}}  {hands:>6,} hand{'' if hands == 1 else 's'}")
            return
        if not names:
            if remove:
                raise UsageError(f"name the tags to remove: `hhtool tag {hand_id} NAME --remove`")
            _said(tags_line(tags_for(database(db), hand_id, site)))
            return
        names = list(dict.fromkeys(normal_tag(name) for name in names))  # every one checked before any is written
        done: list[str] = []
        absent: list[str] = []
        for name in names:
            if remove:
                (done if remove_tag(database(db), hand_id, name, site) else absent).append(name)
            else:
                done.append(add_tag(database(db), hand_id, name, site))
        if done:
            _said(f"hand {hand_id}: {'removed' if remove else 'tagged'} {', '.join(done)}")
        if absent:
            _said(f"hand {hand_id} had no tag {', '.join(absent)}")
        if remove and not done:
            raise typer.Exit(1)


__all__ = ["register"]
