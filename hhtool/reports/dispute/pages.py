"""``hhtool audit --report DIR``: one dispute page per hand with a violation and an index page
that sorts them by the money misawarded (:func:`.settlement.misawarded_total`: pots and uncalled
bets returned), largest first, for a desk that reviews a day's findings."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from hhtool.replay.profiles import RuleProfile, load_profile, profile_for
from hhtool.replay.user_structures import UserStructures
from hhtool.reports.dispute.assets import CSS
from hhtool.reports.dispute.build import build_report
from hhtool.reports.dispute.html import render_html
from hhtool.reports.dispute.model import Report
from hhtool.reports.dispute.stored import stored_facts
from hhtool.reports.site_words import rules_in_words, site_in_words
from hhtool.reports.templating import render
from hhtool.store import Store
from hhtool.store.load import load_hands_by_key

_SORT_JS = """
(function () {
  var table = document.getElementById('index');
  var body = table.tBodies[0];
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell, column) {
    cell.addEventListener('click', function () {
      var numeric = cell.getAttribute('data-type') === 'number';
      var down = cell.getAttribute('aria-sort') !== 'descending';
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute('aria-sort'); });
      cell.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute('data-value'), y = b.cells[column].getAttribute('data-value');
        var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return down ? -order : order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
})();
"""


def page_name(site: str, hand_id: str, taken: set[str]) -> str:
    """A file name from the site and hand id that no hand id can turn into a path elsewhere."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", f"{site}-{hand_id}")[:120].lstrip(".") or "hand"
    name, number = f"{stem}.html", 1
    while name in taken or name == "index.html":
        number += 1
        name = f"{stem}-{number}.html"
    taken.add(name)
    return name


def index_line(report: Report) -> str:
    """The hand's verdict as the index lists it, without what every row would repeat: what the site
    paid or returned wrong ("Paid the $0.63 high half of the main pot to …"), else the first departure
    from the rules (the award being correct, as the $0.00 misawarded beside it says), else the headline."""
    sentences = report.headline[1:] if report.copies else report.headline
    first = sentences[0] if sentences else ""
    if report.misawarded.amount and first.startswith("The site "):
        rest = first.removeprefix("The site ")
        return rest[:1].upper() + rest[1:]
    departures = [f for f in report.findings if f.kind == "violation"]
    if departures and not report.copies:
        more = len(departures) - 1
        return departures[0].message.rstrip(".") + (f" (and {more} more)" if more else "") + "."
    return report.headline[0] if report.headline else ""


def index_html(entries: list[tuple[str, Report]]) -> str:
    """The index page (template ``dispute/index.html``): a row per hand, sortable by any column."""
    # the largest misaward first; then the most findings, the earliest hand
    entries = sorted(entries, key=lambda item: (-item[1].misawarded.amount,
                                                -sum(f.kind == "violation" for f in item[1].findings),
                                                item[1].started_at or "", item[1].site, item[1].hand_id))
    profiles = sorted({r.profile.name for _, r in entries})
    rules = (f"each under {rules_in_words(profiles[0])}" if len(profiles) == 1
             else "each under the rules of its site (the hand's page names them)")
    rows = [(name, r, sum(f.kind == "violation" for f in r.findings), index_line(r)) for name, r in entries]
    return render("dispute/index.html", title=f"Dispute reports: {len(entries)} hands", css=CSS, sort_js=_SORT_JS,
                  entries=rows, rules=rules, site_in_words=site_in_words)


def write_pages(store: Store, directory: str, keys: Iterable[tuple[str, str]], rules: str | None,
                desk: UserStructures | None = None) -> int:
    """Write the pages of the hands ``keys`` names and the index; the number of pages written (``desk``:
    the user's structures file, judged with as `audit --explain` judges)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    fixed: RuleProfile | None = load_profile(rules) if rules else None
    taken: set[str] = set()
    entries: list[tuple[str, Report]] = []
    for site, hand_id in sorted(set(keys)):
        for hand in load_hands_by_key(store, [(site, hand_id)]):
            chosen = profile_for(hand, fixed, desk)
            report = build_report(hand, chosen, stored_facts(store, hand, chosen.name, desk))
            name = page_name(site, hand_id, taken)
            (out / name).write_text(render_html(report), encoding="utf-8")
            entries.append((name, report))
    (out / "index.html").write_text(index_html(entries), encoding="utf-8")
    return len(entries)
