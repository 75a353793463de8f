"""The web page's style sheet and script, inlined into every page (no network, no external font)."""

from __future__ import annotations

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
.card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center; width: 2.1em;
        height: 2.9em; margin: 1px; border: 1px solid #8c959f; border-radius: 4px; background: #fff;
        font-weight: 700; line-height: 1; vertical-align: middle; }
.card .suit { font-size: .9em; } .card.red { color: #c11; } .card.blk { color: #111; }
.card.down { background: #fff8e1; }
.card.back { background: repeating-linear-gradient(45deg, #3a5a9b 0 4px, #2c4680 4px 8px);
             border-color: #2c4680; }
.card.won-high { outline: 3px solid var(--hi); } .card.won-low { box-shadow: 0 0 0 3px var(--lo) inset; }
.legend .card { width: 1.4em; height: 1.4em; }
.felt { background: var(--felt); color: #fff; border-radius: 12px; padding: 10px; display: flex; flex-wrap: wrap; gap: 8px; }
.seat { background: rgba(255,255,255,.12); border-radius: 8px; padding: 6px 8px; min-width: 150px; flex: 1 1 150px; }
.seat.actor { outline: 2px solid var(--hi); } .seat.folded { opacity: .45; } .seat .name { overflow-wrap: anywhere; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
#step-words { font-weight: 600; } tr.street th { background: #eef2f6; } .pots { display: grid; gap: 12px; }
.contender { margin: 6px 0; } .copies { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.copies pre { font-size: .75rem; overflow-x: auto; background: #f6f8fa; padding: 6px; margin: 0; }
pre .diff { background: #ffe4e1; }
@media (max-width: 600px) {
  body { font-size: 15px; } main { padding: 6px; } section { padding: 10px; }
  .copies { grid-template-columns: 1fr; } .seat { min-width: 100%; }
  .card { width: 1.9em; height: 2.6em; } th, td { padding: 3px 4px; }
}
@media print {
  body { background: #fff; } .controls, .replayer-only { display: none; }
  section { border: none; padding: 0; break-inside: avoid; } .felt { background: #fff; color: #000; border: 1px solid #000; }
  .card.back { background: #ddd; } a { color: inherit; }
}
"""

JS = """
(function () {
  var data = JSON.parse(document.getElementById('replay-data').textContent);
  var steps = data.steps, at = 0;
  var felt = document.getElementById('felt');
  var SUITS = {c: '\\u2663', d: '\\u2666', h: '\\u2665', s: '\\u2660'};
  function card(c) {
    var el = document.createElement('span');
    if (c.card === null) { el.className = 'card back'; el.title = 'hidden card'; return el; }
    var suit = c.card.slice(-1), rank = c.card.slice(0, -1);
    el.className = 'card ' + (suit === 'h' || suit === 'd' ? 'red' : 'blk') + (c.face === 'down' ? ' down' : '');
    c.won.forEach(function (half) { el.classList.add('won-' + half); });
    el.setAttribute('data-card', c.card);
    var r = document.createElement('span'); r.textContent = rank === 'T' ? '10' : rank;
    var s = document.createElement('span'); s.className = 'suit'; s.textContent = SUITS[suit] || suit;
    el.appendChild(r); el.appendChild(s); return el;
  }
  function draw() {
    var step = steps[at];
    felt.textContent = '';
    data.players.forEach(function (player) {
      var seat = document.createElement('div');
      seat.className = 'seat' + (step.actor === player ? ' actor' : '') + (step.folded.indexOf(player) >= 0 ? ' folded' : '');
      seat.setAttribute('data-player', player);
      var name = document.createElement('div'); name.className = 'name';
      name.textContent = player + (step.folded.indexOf(player) >= 0 ? ' (folded)' : '');
      var cards = document.createElement('div'); cards.className = 'cards';
      (step.cards[player] || []).forEach(function (c) { cards.appendChild(card(c)); });
      seat.appendChild(name); seat.appendChild(cards); felt.appendChild(seat);
    });
    document.getElementById('step-words').textContent = step.words;
    document.getElementById('step-pot').textContent = step.pot ? 'Pot ' + step.pot : '';
    document.getElementById('step-count').textContent = (at + 1) + ' / ' + steps.length + ' \\u2014 ' + step.label;
    document.getElementById('prev').disabled = at === 0;
    document.getElementById('next').disabled = at === steps.length - 1;
    felt.setAttribute('data-step', String(at));
    felt.setAttribute('data-showdown', step.showdown ? 'yes' : 'no');
  }
  function go(delta) { at = Math.max(0, Math.min(steps.length - 1, at + delta)); draw(); }
  document.getElementById('prev').addEventListener('click', function () { go(-1); });
  document.getElementById('next').addEventListener('click', function () { go(1); });
  document.getElementById('end').addEventListener('click', function () { go(steps.length); });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowRight') { go(1); event.preventDefault(); }
    else if (event.key === 'ArrowLeft') { go(-1); event.preventDefault(); }
    else if (event.key === 'End') { go(steps.length); event.preventDefault(); }
    else if (event.key === 'Home') { go(-steps.length); event.preventDefault(); }
  });
  draw();
})();
"""
