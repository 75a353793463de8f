"""The web page's style sheet and script, inlined into every page (no network, no external font)."""

from __future__ import annotations

from hhtool.reports.dispute.replayer_assets import REPLAYER_CSS, REPLAYER_JS

CSS = """
:root { --ink: #1b1f23; --muted: #586069; --line: #d0d7de; --bad: #b42318; --good: #067647; --hi: #f5b700;
        --lo: #2e90fa; --felt: #0f5132; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: #f6f8fa; }
.scroll { overflow-x: auto; max-width: 100%; }
main { overflow-wrap: break-word; max-width: 980px; margin: 0 auto; padding: 12px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 12px 0; }
h1 { font-size: 1.3rem; margin: 4px 0 8px; } h2 { font-size: 1.1rem; margin: 0 0 8px; }
.verdict { font-size: 1.1rem; border-left: 6px solid var(--good); padding-left: 10px; }
.verdict.violation { border-color: var(--bad); } .verdict.unverifiable { border-color: var(--hi); }
.meta { color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.plus { color: var(--bad); font-weight: 600; } .minus { color: var(--bad); font-weight: 600; }
tr.street th { background: #eef2f6; } .pots { display: grid; gap: 12px; }
.contender { margin: 6px 0; } .copies { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.copies pre { font-size: .75rem; overflow-x: auto; background: #f6f8fa; padding: 6px; margin: 0; }
pre .diff { background: #ffe4e1; }
@media (max-width: 600px) {
  body { font-size: 15px; } main { padding: 6px; } section { padding: 10px; }
  .copies { grid-template-columns: 1fr; } th, td { padding: 3px 4px; }
}
@media print {
  body { background: #fff; } .controls, .replayer-only { display: none; }
  section { border: none; padding: 0; break-inside: avoid; } a { color: inherit; }
}
""" + REPLAYER_CSS  # the cards, the felt and the step controls: the replayer's own

JS = REPLAYER_JS
