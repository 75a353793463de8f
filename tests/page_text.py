"""What a page shows, to compare two renderings of it: its text as a reader sees it (every run of
white space one space; style and script text left out) and the data of its replayers (the JSON a
``<script type="application/json">`` carries, parsed)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.data: list[Any] = []
        self._inside: str | None = None  # "style", "script" or "json" while in one
        self._json: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._inside = "json" if ("type", "application/json") in attrs else "script"
        elif tag == "style":
            self._inside = "style"
        elif tag in ("br", "p", "div", "section", "tr", "td", "th", "li", "dt", "dd", "h1", "h2", "h3", "table", "pre"):
            self.words.append(" ")  # a block or a cell ends a word, in a browser too

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            if self._inside == "json":
                self.data.append(json.loads("".join(self._json)))
                self._json = []
            self._inside = None
        elif tag in ("p", "div", "section", "tr", "td", "th", "li", "dt", "dd", "h1", "h2", "h3", "table", "pre"):
            self.words.append(" ")

    def handle_data(self, data: str) -> None:
        if self._inside == "json":
            self._json.append(data)
        elif self._inside is None:
            self.words.append(data)


def page_text(page: str) -> tuple[str, list[Any]]:
    """The page's text (white space runs as one space, trimmed) and its replayers' data."""
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return re.sub(r"\s+", " ", "".join(reader.words)).strip(), reader.data
