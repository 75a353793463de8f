"""Printing shared by the commands: Polars frames as a table, CSV, JSON or Parquet (the report
commands), and the summary of an import (`import`, `audit PATH…`)."""

from __future__ import annotations

import math
import os
import re
import shutil
import sys
from collections.abc import Collection, Sequence
from decimal import Decimal
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len, set_cell_size
from rich.markup import escape
from rich.text import Text

from hhtool.cli.common import Verbosity, out, verbosity
from hhtool.reports.json_safe import dumps
from hhtool.reports.printable import printable
from hhtool.service.errors import CannotWrite, UsageError
from hhtool.service.out_files import written_whole

if TYPE_CHECKING:  # a frame to print comes from a command that loaded Polars; this module does not need to
    import polars as pl

    from hhtool.service.importing import FileReport, ImportReport

#: an import report's status of a file that holds no hand (hhtool.ingest.accounting.NOT_A_HAND_HISTORY)
NOT_A_HAND_HISTORY = "not a hand history"
NOT_A_HISTORY_SKIPPED = "[yellow]not a hand history[/yellow], skipped"


class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    parquet = "parquet"
    html = "html"


#: what a file's suffix names; a suffix not listed (.txt, none) takes --format, the table by default
SUFFIX_FORMATS = {".csv": OutputFormat.csv, ".json": OutputFormat.json, ".parquet": OutputFormat.parquet,
                  ".html": OutputFormat.html, ".htm": OutputFormat.html}
#: suffixes of formats a table cannot be written in
NOT_A_TABLE = (".png", ".jpg", ".jpeg", ".svg", ".pdf")
#: the width of a table written to a file or a pipe (no terminal to fit)
UNBOUNDED_WIDTH = 200
#: how a table's last line says the columns left out to fit can be seen
SHOWS_MORE = "--columns or --all shows them"
_NUMBERISH = re.compile(r"^(?:[-+]?[$€£]?[\d,]*\.?\d+(?:e[-+]?\d+)?%?(?: chips)?|-)$")  # (chips: sessions)


def terminal_width() -> int:
    """The width to fit: $COLUMNS when set (as shells and test runners set it), else the terminal's,
    else (a pipe or a file) room enough not to wrap."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return UNBOUNDED_WIDTH


def file_format(output_format: OutputFormat | None, out_file: str | None) -> OutputFormat:
    """The format to write: the one ``--out``'s suffix names (a usage error where ``--format``
    names another), else ``--format``, else the table."""
    suffix = Path(out_file).suffix.lower() if out_file else ""
    if suffix in NOT_A_TABLE:
        raise UsageError(f"--out {out_file}: a table is written as .csv, .json, .parquet, .html or text, "
                         f"not {suffix}")
    named = SUFFIX_FORMATS.get(suffix)
    if named is None:
        return output_format or OutputFormat.table
    if output_format not in (None, OutputFormat.table, named):
        raise UsageError(f"--format {output_format} does not match --out {out_file} (a {named} file): "
                         "drop --format, or change the suffix")
    return named


def emit_frame(frame: pl.DataFrame, output_format: OutputFormat | None, out_file: str | None = None, *,
               uncut: Collection[str] = (), optional: Sequence[str] = (), shows_more: str = SHOWS_MORE) -> None:
    """Print ``frame``, or write it to ``out_file`` in the format its suffix names (see :func:`file_format`);
    a table as :func:`fitted_table` fits it (``uncut``, ``optional``)."""
    chosen = file_format(output_format, out_file)
    if chosen is OutputFormat.parquet:
        import polars as pl

        if not out_file:
            raise UsageError("--format parquet needs --out FILE")
        with written_whole(out_file) as temporary:
            try:
                frame.write_parquet(temporary)
            except pl.exceptions.ComputeError as error:  # Polars' words for an OSError (a full disk)
                raise CannotWrite(out_file, OSError(str(error))) from None
        tell_written(out_file, rows_text(frame.height))
        return
    if chosen is OutputFormat.csv:
        text = csv_text(frame)
    elif chosen is OutputFormat.json:
        text = json_text(frame)
    elif chosen is OutputFormat.html:
        text = html_text(frame)
    else:
        width = UNBOUNDED_WIDTH if out_file else terminal_width()
        text = "".join(line + "\n" for line in fitted_table(frame, width, uncut=uncut, optional=optional,
                                                             shows_more=shows_more))
    write_text(text, out_file, rows_text(frame.height))


def rows_text(rows: int) -> str:
    return f"{rows:,} row" + ("" if rows == 1 else "s")


def tell_written(out_file: str, what: str | None = None) -> None:
    """``wrote FILE (what)`` on stdout, as every ``--out`` ends (`graph` as well); nothing with -q."""
    if verbosity() is not Verbosity.QUIET:
        out.print(f"wrote {out_file}" + (f" ({what})" if what else ""), markup=False, highlight=False, soft_wrap=True)


def write_text(text: str, out_file: str | None, what: str | None = None) -> None:
    """``text`` to ``out_file`` (written whole, then ``wrote FILE``), else to stdout."""
    if out_file:
        with written_whole(out_file) as temporary:
            temporary.write_text(text, encoding="utf-8")
        tell_written(out_file, what)
    else:
        sys.stdout.write(text)


# ------------------------------------------------------------------ files: CSV, JSON, HTML


def jsonable(value: Any) -> Any:
    """``value`` as JSON has it: a decimal (DuckDB's HUGEINT and DECIMAL) a number, exactly when it is
    whole; a non-finite float null; lists and structs inside out; dates and the rest as text."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def json_text(frame: pl.DataFrame) -> str:
    rows = [{key: jsonable(value) for key, value in row.items()} for row in frame.iter_rows(named=True)]
    return dumps(rows, indent=2) + "\n"


def csv_text(frame: pl.DataFrame) -> str:
    """CSV, a list or struct column's cells written as JSON text (CSV has no nesting)."""
    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    if nested:
        import polars as pl

        frame = frame.with_columns(
            pl.Series(name, [None if value is None else dumps(jsonable(value))
                             for value in frame[name].to_list()], dtype=pl.Utf8)
            for name in nested
        )
    return frame.write_csv()


def html_text(frame: pl.DataFrame) -> str:
    """A page with the frame as one table (template ``table.html``: every value escaped there)."""
    from hhtool.reports.templating import render

    numeric = [dtype.is_numeric() or _numbers_as_text(frame[name].to_list()) for name, dtype in frame.schema.items()]
    rows = [[(_cell(value), is_number) for value, is_number in zip(row, numeric, strict=True)] for row in frame.iter_rows()]
    return render("table.html", columns=frame.columns, rows=rows)


def _numbers_as_text(values: list[Any]) -> bool:
    """A text column of numbers as a report shows them ("44.1%", "-$0.12", "-"): right-aligned, as on a terminal."""
    texts = [value for value in values if isinstance(value, str) and value]
    return bool(texts) and len(texts) == len([v for v in values if v is not None]) and all(
        _NUMBERISH.match(text) for text in texts)


# ------------------------------------------------------------------ the terminal: a table that fits, or records

#: a text column is not cut below this many characters; a number is never cut
MIN_TEXT_WIDTH = 8
GAP = "  "


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e15 else str(value)
    if isinstance(value, list | dict):
        return dumps(jsonable(value))
    return printable(str(value))


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` terminal cells, its end replaced by "…" when it is longer."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(width - 1, 0)) + "…" if width > 0 else ""


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * max(width - cell_len(text), 0)
    return space + text if right else text + space


def fitted_table(frame: pl.DataFrame, width: int, *, uncut: Collection[str] = (),
                 optional: Sequence[str] = (), wrap: bool = True, shows_more: str = SHOWS_MORE) -> list[str]:
    """The frame as lines of at most ``width`` cells: numbers right-aligned, a long text narrowed to
    fit and wrapped within its column onto the lines under its row, between words where it can be
    (never the columns named ``uncut``: an id to copy, a date), so that every value reads whole in
    place; ``wrap=False``: one line a row, long text cut with "…" (for a caller that puts the whole
    text under the row itself, as `audit` does). Where even the columns at their least do not fit,
    the ``optional`` columns are left out one by one in that order (a last line names them), and
    where that is not enough, one "column: value" line each, record after record (:func:`records`)."""
    if not frame.columns:
        return []
    cells = [[_cell(value) for value in frame[name].to_list()] for name in frame.columns]
    right = [dtype.is_numeric() or (any(column) and all(_NUMBERISH.match(text) for text in column if text))
             for dtype, column in zip(frame.dtypes, cells, strict=True)]
    natural = [max([cell_len(name), *(cell_len(text) for text in column)])
               for name, column in zip(frame.columns, cells, strict=True)]
    least = [size if is_number or name in uncut else min(size, MIN_TEXT_WIDTH)
             for name, size, is_number in zip(frame.columns, natural, right, strict=True)]
    gaps = len(GAP) * (len(natural) - 1)
    # a wrapped column first narrows no further than its longest word (no word broken), then to its least;
    # an optional column is left out before a word is broken
    words = [max([least_size, _longest_word(name), *(_longest_word(text) for text in column)])
             if wrap and not is_number else least_size
             for name, column, least_size, is_number in zip(frame.columns, cells, least, right, strict=True)]
    for floor in (words, least) if sum(words) + gaps > width else ():
        if floor is least and sum(least) + gaps <= width:
            break
        left_out = [name for name in optional if name in frame.columns]
        for count in range(1, len(left_out) + 1):
            kept = [name for name in frame.columns if name not in left_out[:count]]
            kept_floor = [size for name, size in zip(frame.columns, floor, strict=True) if name in kept]
            if kept and sum(kept_floor) + len(GAP) * (len(kept) - 1) <= width:
                said = f"(left out to fit: {', '.join(left_out[:count])}; {shows_more})"
                table = fitted_table(frame.select(kept), width, uncut=uncut, wrap=wrap)
                if table and table[0].startswith("── 1 of "):  # records after all: every column in them
                    return records(frame, width, wrap=wrap)
                return [*table,
                        *(wrapped_text(said, width, 1) if wrap else [cut(said, width)])]
    if sum(least) + gaps > width:
        return records(frame, width, wrap=wrap)
    sizes = list(natural)
    for floor in (words, least):
        while sum(sizes) + gaps > width:  # the widest text column gives one cell at a time
            narrower = [index for index in range(len(sizes)) if sizes[index] > floor[index]]
            if not narrower:
                break
            sizes[max(narrower, key=lambda i: sizes[i])] -= 1
    heads = [wrapped_text(name, size) if wrap else [cut(name, size)] for name, size in zip(frame.columns, sizes, strict=True)]
    lines = [GAP.join(_pad(head[number] if number < len(head) else "", size, is_number)
                      for head, size, is_number in zip(heads, sizes, right, strict=True)).rstrip()
             for number in range(max(len(head) for head in heads))]
    lines.append(GAP.join("─" * size for size in sizes))
    for index in range(frame.height):
        if not wrap:
            lines.append(GAP.join(_pad(cut(column[index], size), size, is_number)
                                  for column, size, is_number in zip(cells, sizes, right, strict=True)).rstrip())
            continue
        pieces = [wrapped_text(column[index], size) for column, size in zip(cells, sizes, strict=True)]
        for number in range(max(len(piece) for piece in pieces)):
            lines.append(GAP.join(_pad(piece[number] if number < len(piece) else "", size, is_number)
                                  for piece, size, is_number in zip(pieces, sizes, right, strict=True)).rstrip())
    broken = any(size < floor for size, floor in zip(sizes, words, strict=True))
    if wrap and broken and len(lines) - len(heads) - 1 > 2 * frame.height:
        return records(frame, width)  # (words broken into rows of three lines and more: records read better)
    lines.append(f"{frame.height} row" + ("" if frame.height == 1 else "s"))
    return lines


def _longest_word(text: str) -> int:
    """The cells of the longest piece :func:`wrapped_text` keeps whole (a path breaks after a "/")."""
    return max((cell_len(piece) for piece in re.split(r" |(?<=/)", text)), default=0)


def wrapped_text(text: str, width: int, indent: int = 0) -> list[str]:
    """``text`` as lines of at most ``width`` cells, broken between words (a word longer than a line
    where the line ends), the lines after the first indented ``indent`` cells; ``[""]`` for no text.

    >>> wrapped_text("the opener cannot be told", 10), wrapped_text("pokerstars", 7), wrapped_text("a b", 9, 2)
    (['the opener', 'cannot be', 'told'], ['pokerst', 'ars'], ['a b'])
    >>> wrapped_text("/corpus/Winning/7-Stud.txt", 12), wrapped_text("one two three", 7, 2)
    (['/corpus/', 'Winning/', '7-Stud.txt'], ['one two', '  three'])
    """
    if cell_len(text) <= width:
        return [text]
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        room = width - (indent if lines else 0)
        if current and cell_len(current) + 1 + cell_len(word) <= room:
            current += " " + word
            continue
        if current or lines:
            lines.append(current)
            room = width - indent
        current = word
        while cell_len(current) > room:  # longer than a line: broken after its last "/" that fits, else where the line ends
            count = max(_chars_in(current, room), 1)
            count = current.rfind("/", 0, count) + 1 or count
            lines.append(current[:count])
            current = current[count:]
            room = width - indent
    lines.append(current)
    lines = [line for number, line in enumerate(lines) if line or number == 0]
    return [lines[0], *(" " * indent + line for line in lines[1:])]


_WORD = re.compile(r"\S+\s*")


def fit_lines(lines: list[Text], width: int, hanging: int | None = None) -> list[Text]:
    """Each line in at most ``width`` cells: a longer one broken between words, its continuations
    indented ``hanging`` cells (default: two past its own indent; styles kept); a word longer than a
    line is cut."""
    fitted: list[Text] = []
    for line in lines:
        plain = line.plain
        if cell_len(plain) <= width:
            fitted.append(line)
            continue
        own_indent = len(plain) - len(plain.lstrip(" "))
        indent = min(own_indent + 2 if hanging is None else hanging, width // 2)
        cuts = _line_breaks(plain, width, indent, own_indent)
        for number, piece in enumerate(line.divide(cuts)):
            piece.rstrip()
            fitted.append(Text(" " * indent) + piece if number else piece)
    return fitted


def _line_breaks(plain: str, width: int, indent: int, used: int) -> list[int]:
    """Where ``plain`` breaks so that no line passes ``width`` (continuations start after ``indent``)."""
    room, cuts = width, []
    for word in _WORD.finditer(plain):
        position, core_end = word.start(), word.start() + len(word.group().rstrip())
        if used and used + cell_len(plain[position:core_end]) > room:
            cuts.append(position)
            room, used = width - indent, 0
        while cell_len(plain[position:core_end]) > room - used:  # longer than a whole line: cut it
            position += max(_chars_in(plain[position:core_end], room - used), 1)
            cuts.append(position)
            room, used = width - indent, 0
        used += cell_len(plain[position:word.end()])
    return cuts


def _chars_in(text: str, cells: int) -> int:
    """How many of ``text``'s first characters fit in ``cells``."""
    total = 0
    for count, char in enumerate(text):
        total += cell_len(char)
        if total > cells:
            return count
    return len(text)


def records(frame: pl.DataFrame, width: int, *, wrap: bool = True) -> list[str]:
    """Each row as a record: one "column: value" line a column, a long value wrapped onto the lines
    under it, aligned with its start (``wrap=False``: cut to ``width``)."""
    label = min(max(cell_len(name) for name in frame.columns), max(width // 2, 1))
    room = max(width - label - 2, 1)
    lines: list[str] = []
    for index, row in enumerate(frame.iter_rows()):
        lines.append(set_cell_size(f"── {index + 1} of {frame.height} " + "─" * width, width))
        for name, value in zip(frame.columns, row, strict=True):
            pieces = wrapped_text(_cell(value), room) if wrap else [cut(_cell(value), room)]
            lines.append(f"{_pad(cut(name, label), label, False)}: {pieces[0]}".rstrip())
            lines += [" " * (label + 2) + piece for piece in pieces[1:]]
    return lines


class Detail(IntEnum):
    """How much an import summary tells: QUIET the total line and what failed in all; NORMAL (the
    default) a line for each file with something to say beyond "stored N", the first few hand ids
    and reasons of each; VERBOSE every file, every duplicate id kept and every reason uncut."""

    QUIET = 0
    NORMAL = 1
    VERBOSE = 2


#: files with something to say listed by a NORMAL summary (the others are counted)
SHOWN_FILES = 20
#: duplicate hand ids, and failures, a NORMAL summary shows of one file
SHOWN_IDS = 5
SHOWN_FILE_FAILURES = 3
#: names of files that are not hand histories a NORMAL summary shows on its one line
SHOWN_NOT_HISTORIES = 8


def shown_path(path: str) -> str:
    """A report's path as the user would type it: relative to the current folder when inside it, and
    :func:`printable` (a hostile file or archive member name's escapes as "?")."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return printable(path)
    return printable(relative if not relative.startswith("..") else path)


def cut_left(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, its start replaced by "…" (a path's end says most)."""
    if cell_len(text) <= width or width < 2:
        return text
    return "…" + text[len(text) - width + 1:]


def _some(items: list[str], shown: int, total: int) -> str:
    more = total - min(shown, len(items))
    return ", ".join(items[:shown]) + (f" … {more} more" if more > 0 else "")


def _fitting(names: list[str], width: int, total: int | None = None) -> str:
    """As many of ``names`` (the first of ``total``) as fit in ``width`` cells (at least one, cut),
    then "… N more"."""
    total = len(names) if total is None else max(total, len(names))
    shown: list[str] = []
    for index, name in enumerate(names):
        more = f" … {total - index - 1} more" if index < total - 1 else ""
        if shown and cell_len(", ".join([*shown, name]) + more) > width:
            return ", ".join(shown) + f" … {total - index} more"
        shown.append(name)
    more = f" … {total - len(shown)} more" if total > len(shown) else ""
    return (cut(", ".join(shown), width - len(more)) if len(shown) == 1 else ", ".join(shown)) + more


def _file_counts(report: FileReport) -> list[str]:
    resumed = report.already_stored
    parts = [f"{report.stored} stored"]
    if report.completed:  # (one of the stored: said, as the count it replaced is gone from the store)
        parts[0] += f" ({report.completed} completing a hand stored cut off while it was written: replaced)"
    if resumed:
        parts.append(f"{resumed} stored before (an earlier import of it stopped there: resumed)")
    for count, what in ((report.duplicates, "duplicates"), (report.skipped, "skipped"),
                        (report.failed, "failed"), (report.incomplete, "incomplete")):
        if count:
            parts.append(f"{count} {what}")
    return parts


def _says_more(report: FileReport) -> bool:
    """Whether a file has more to say than "stored N" (and was read: unchanged files are counted)."""
    return report.status not in ("unchanged", NOT_A_HAND_HISTORY) and bool(
        report.duplicates or report.skipped or report.failed or report.incomplete or report.conflicts
        or report.failures or report.changed or report.status in ("grown", "reread"))


def _said(lead: str, marked: str, text: str, width: int) -> list[str]:
    """``text`` after ``lead`` (its words ``marked`` in markup, when given), wrapped under itself to ``width``
    cells rather than cut (#35 item 7: a reason is read whole in place), every value escaped."""
    pieces = wrapped_text(text, max(width - len(lead), 20))
    first = lead.replace(lead.strip(), marked.strip(), 1) if marked else lead
    return [first + escape(pieces[0]), *(" " * len(lead) + escape(piece) for piece in pieces[1:])]


def _file_lines(report: FileReport, detail: Detail, width: int) -> list[str]:
    """A file's line and its indented details, as rich markup (every value escaped)."""
    ids, failures = (10**9, 10**9) if detail is Detail.VERBOSE else (SHOWN_IDS, SHOWN_FILE_FAILURES)
    fit = (lambda text, room: text) if detail is Detail.VERBOSE else cut
    how = {"grown": " (grown: read from its last hand on)", "reread": " (read again another way)",
           "unchanged": " (imported before, unchanged: not read again)"}.get(report.status, "")
    counts = f": {', '.join(_file_counts(report))}{how}"
    path = shown_path(report.path)
    if detail is not Detail.VERBOSE:  # the path gives room to the counts, down to 20 cells (its end kept)
        path = cut_left(path, max(width - 2 - cell_len(counts), 20))
    lines = ["  " + escape(fit(path + counts, width - 2))]
    if report.changed:  # (cut or rewritten in place: said, since what it held before is not read again)
        lines.append(f"      [yellow]{escape(fit(report.changed, width - 6))}[/yellow]")
    duplicates = report.duplicates
    if duplicates and report.duplicate_ids:
        lines.append("      duplicates: " + escape(_some(report.duplicate_ids, 10**9, duplicates) if detail is Detail.VERBOSE
                                                 else _fitting(report.duplicate_ids[:ids], width - 18, duplicates)))
    if report.skipped_games:
        games = [f"{game} ×{count}" for game, count in sorted(report.skipped_games.items(), key=lambda item: -item[1])]
        lines += _said("      skipped (other games): ", "", ", ".join(games), width)
    for failure in report.failures[:failures]:
        if not failure.line:  # about the whole file (how it was decoded): no hand failed for it
            lines += _said("      note: ", "", failure.reason, width)
            continue
        lines += _said("      failed ", "[red]failed[/red] ", f"line {failure.line}: {failure.reason}", width)
    if len(report.failures) > failures:
        lines.append(f"      … {len(report.failures) - failures} more failed (hhtool problems --file {escape(path)})")
    for hand in report.incomplete_hands:
        lines += _said("      incomplete ", "[yellow]incomplete[/yellow] ", f"line {hand.line}: {hand.reason}", width)
    for conflict in report.conflicts[:failures]:
        lines.append(f"      [red]conflicting copy[/red] {escape(conflict.site)} hand {escape(conflict.hand_id)}: differs "
                     f"from the stored copy {escape(shown_path(conflict.first))} (`hhtool audit --explain "
                     f"{escape(conflict.hand_id)}` shows both)")
    if len(report.conflicts) > failures:
        lines.append(f"      … {len(report.conflicts) - failures} more conflicting copies "
                     "(hhtool audit --code CONFLICTING_COPY)")
    return lines


def import_summary_lines(report: ImportReport, detail: Detail = Detail.NORMAL, width: int = 80) -> list[str]:
    """An import's summary as lines of rich markup fitting ``width`` columns: the total line, then
    (``detail`` NORMAL, the default) a line for each file with something to say beyond "stored N"
    (duplicates with their hand ids, skipped games, failures with their reasons, the first few of
    each), the files that are not hand histories on one line, and what could not be read."""
    found, stored, dup = report.total("hands_found"), report.total("stored"), report.total("duplicates")
    resumed, skipped, incomplete = report.total("already_stored"), report.total("skipped"), report.total("incomplete")
    conflicts = report.conflicts
    lines = [
        # (the hands an earlier import of a file stored where this one resumed are found, not duplicates)
        f"{len(report.files)} files: {found + resumed} hands found = {stored} stored + "
        + (f"{resumed} stored before (resumed) + " if resumed else "")
        + f"{dup} duplicates"
        + (f" ({len(conflicts)} conflicting copies)" if conflicts else "")
        + f" + {skipped} skipped (other games) + {report.total('failed')} failed"
        + (f" + {incomplete} incomplete (a truncated last hand, kept in import_errors)" if incomplete else "")
    ]
    if detail is not Detail.QUIET:
        talking = [file for file in report.files
                   if (detail is Detail.VERBOSE and file.status != NOT_A_HAND_HISTORY) or _says_more(file)]
        shown = talking if detail is Detail.VERBOSE else talking[:SHOWN_FILES]
        for file_report in shown:
            lines.extend(_file_lines(file_report, detail, width))
        if len(talking) > len(shown):
            lines.append(f"  … and {len(talking) - len(shown)} more files with duplicates, skipped or failed hands "
                         "(--format json lists every file)")
    groups: dict[tuple[str, str], list[str]] = {}  # (what, why) -> the files
    for file in report.files:
        if file.status == NOT_A_HAND_HISTORY:
            # (a --site that found no hand in a file of another site: a mistake to tell, exit 1)
            what = "[red]another site's history[/red], nothing read" if file.looks_like else NOT_A_HISTORY_SKIPPED
            groups.setdefault((what, file.note or "no hand in it"), []).append(shown_path(file.path))
    if report.ignored:
        groups[(NOT_A_HISTORY_SKIPPED, "not read, by the name's ending")] = [shown_path(path) for path in report.ignored]
    for (what, why), names in groups.items() if detail is not Detail.QUIET else ():
        count = f"{len(names)} {'file' if len(names) == 1 else 'files'}"
        lines.append(f"  {what} ({count}: {escape(why)}):")
        if detail is Detail.VERBOSE:
            lines.extend(f"      {escape(name)}" for name in names)
        elif len(names) <= SHOWN_NOT_HISTORIES:  # a few: one a line, each path's end kept
            lines.extend(f"      {escape(cut_left(name, width - 6))}" for name in names)
        else:  # many (a folder of pictures): as many as fit on one line
            lines.append("      " + escape(_fitting(names, width - 6)))
    for problem in report.unreadable:
        lines.append(f"  [red]unreadable[/red] {escape(problem)}")
    unchanged = [r for r in report.files if r.status == "unchanged"]
    if unchanged and detail is not Detail.QUIET:
        lines.append(f"{len(unchanged)} {'file was' if len(unchanged) == 1 else 'files were'} imported before and "
                     "read the same way: not read again")
        lines.append("  (to read a file another way: --site SITE, or no --site to detect the site)")
    # (the total line counts hands; an input that could not be opened is no hand: said apart, so
    # that "0 failed" above is never followed by "1 failed")
    hands_failed, unopened = report.total("failed"), len(report.unreadable)
    if hands_failed:
        lines.append(f"[red]{hands_failed} failed[/red]; every other hand was stored (`hhtool problems` lists "
                     "the failures).")
    if unopened:
        inputs = "1 input" if unopened == 1 else f"{unopened:,} inputs"
        rest = "; every hand of the others was stored" if report.files and not hands_failed else ""
        lines.append(f"[red]{inputs} could not be read[/red] (listed above){rest}.")
    return lines


def print_text_summary(report: ImportReport, level: Detail | None = None) -> None:
    """The import summary on stdout (:func:`import_summary_lines`, at the terminal's width), as much
    of it as ``level`` asks (default: what -q/-v chose)."""
    if level is None:
        level = {Verbosity.QUIET: Detail.QUIET, Verbosity.VERBOSE: Detail.VERBOSE}.get(verbosity(), Detail.NORMAL)
    for line in import_summary_lines(report, level, min(terminal_width(), UNBOUNDED_WIDTH)):
        out.print(printable(line), highlight=False)  # (every name in it: a reason, a game, a hand id too)
