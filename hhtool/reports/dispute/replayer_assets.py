"""The replayer's own style sheet and script (:mod:`.replayer`): the cards drawn with CSS, the felt,
the step controls. Both go inline into any page that shows a replayer (the dispute page, `show
--format html`, a page that embeds one): no network, no external font.

The script starts every ``.replayer`` element of the page with the steps in its own
``script.replay-data`` (JSON), so a page may hold several; ←/→, Home and End step the replayer that
holds the focus (the first one while nothing inside one has it), never while a text field is typed in."""

from __future__ import annotations

REPLAYER_CSS = """
.card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center; width: 2.1em;
        height: 2.9em; margin: 1px; border: 1px solid #8c959f; border-radius: 4px; background: #fff; color: #111;
        font-weight: 700; line-height: 1; vertical-align: middle; }
.card .suit { font-size: .9em; } .card.red { color: #c11; } .card.blk { color: #111; }
.card.down { background: #fff3c4; border: 2px dashed #8a6d00; }
.card.back { background: repeating-linear-gradient(45deg, #3a5a9b 0 4px, #2c4680 4px 8px);
             border-color: #2c4680; }
.card.won-high { outline: 3px solid var(--hi, #f5b700); } .card.won-low { box-shadow: 0 0 0 3px var(--lo, #2e90fa) inset; }
.card.unknown { color: #57606a; border-style: dotted; }
.legend .card { width: 1.4em; height: 1.4em; }
.felt { background: var(--felt, #0f5132); color: #fff; border-radius: 12px; padding: 10px; display: flex;
        flex-wrap: wrap; gap: 8px; }
.seat { background: rgba(255,255,255,.12); border-radius: 8px; padding: 6px 8px; min-width: 150px; flex: 1 1 auto; }
.seat.actor { outline: 2px solid var(--hi, #f5b700); } .seat.folded { opacity: .45; }
.seat .name { overflow-wrap: anywhere; } .seat .cards { display: flex; flex-wrap: nowrap; align-items: center; }
.seat .gap { display: inline-block; width: .5em; }
.seat .chips { display: flex; flex-wrap: wrap; gap: 2px 10px; font-size: .85em; margin: 2px 0 4px;
               font-variant-numeric: tabular-nums; }
.seat .front { background: #f5b700; color: #111; border-radius: 9px; padding: 0 7px; font-weight: 600; }
.seat .won { background: #d1fadf; color: #054f31; border-radius: 9px; padding: 0 7px; font-weight: 600; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.replayer button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--line, #d0d7de);
                   background: #fff; color: inherit; cursor: pointer; }
.replayer button:disabled { opacity: .5; cursor: default; }
.step-words { font-weight: 600; overflow-wrap: anywhere; }
@media (max-width: 600px) {
  .seat { min-width: 100%; } .card { width: 1.9em; height: 2.6em; }
}
@media print {
  .replayer .controls { display: none; } .felt { background: #fff; color: #000; border: 1px solid #000; }
  .card.back { background: #ddd; }
}
"""

REPLAYER_JS = """
(function () {
  var SUITS = {c: '\\u2663', d: '\\u2666', h: '\\u2665', s: '\\u2660'};
  var replayers = [];
  function card(c) {
    var el = document.createElement('span');
    if (c.card === null && c.face === 'up') {
      el.className = 'card unknown'; el.title = 'an up card the history does not print'; el.textContent = '?'; return el;
    }
    if (c.card === null) { el.className = 'card back'; el.title = 'hidden card'; return el; }
    var suit = c.card.slice(-1), rank = c.card.slice(0, -1);
    el.className = 'card ' + (suit === 'h' || suit === 'd' ? 'red' : 'blk') + (c.face === 'down' ? ' down' : '');
    if (c.face === 'down') { el.title = 'down card'; }  // (at the showdown too: it was dealt face down)
    c.won.forEach(function (half) { el.classList.add('won-' + half); });
    el.setAttribute('data-card', c.card);
    el.setAttribute('data-face', c.face);
    var r = document.createElement('span'); r.textContent = rank === 'T' ? '10' : rank;
    var s = document.createElement('span'); s.className = 'suit'; s.textContent = SUITS[suit] || suit;
    el.appendChild(r); el.appendChild(s); return el;
  }
  function start(root) {
    var data = JSON.parse(root.querySelector('script.replay-data').textContent);
    var steps = data.steps, at = 0;
    function part(name) { return root.querySelector('.' + name); }
    var felt = part('felt');
    function draw() {
      var step = steps[at];
      felt.textContent = '';
      data.players.forEach(function (player) {
        var folded = step.folded.indexOf(player) >= 0;
        var seat = document.createElement('div');
        seat.className = 'seat' + (step.actor === player ? ' actor' : '') + (folded ? ' folded' : '');
        seat.setAttribute('data-player', player);
        var name = document.createElement('div'); name.className = 'name';
        name.textContent = player + (folded ? ' (folded)' : '');
        var cards = document.createElement('div'); cards.className = 'cards';
        var held = step.cards[player] || [], face = null;
        held.forEach(function (c) {
          var shown = c.face;
          if (face !== null && shown !== face && !step.showdown) {
            var gap = document.createElement('span'); gap.className = 'gap'; cards.appendChild(gap);
          }
          face = shown; cards.appendChild(card(c));
        });
        var money = (step.chips || {})[player] || {}, purse = document.createElement('div');
        purse.className = 'chips';
        [['stack', money.stack ? 'Stack ' + money.stack : (money.stack === null ? 'Stack not stated' : '')],
         ['front', money.front ? 'In front ' + money.front : ''], ['won', money.won ? 'Wins ' + money.won : '']
        ].forEach(function (pair) {
          if (!pair[1]) { return; }
          var bit = document.createElement('span'); bit.className = pair[0]; bit.textContent = pair[1];
          purse.appendChild(bit);
        });
        seat.appendChild(name); seat.appendChild(purse); seat.appendChild(cards); felt.appendChild(seat);
      });
      part('step-words').textContent = step.words;
      part('step-pot').textContent = step.pot ? 'Pot ' + step.pot : '';
      part('step-count').textContent = (at + 1) + ' / ' + steps.length + ' \\u2014 ' + step.label;
      part('prev').disabled = at === 0;
      part('next').disabled = at === steps.length - 1;
      felt.setAttribute('data-step', String(at));
      felt.setAttribute('data-showdown', step.showdown ? 'yes' : 'no');
    }
    function go(delta) { at = Math.max(0, Math.min(steps.length - 1, at + delta)); draw(); }
    part('prev').addEventListener('click', function () { go(-1); });
    part('next').addEventListener('click', function () { go(1); });
    part('end').addEventListener('click', function () { go(steps.length); });
    draw();
    return {root: root, go: go, steps: steps.length};
  }
  document.querySelectorAll('.replayer').forEach(function (root) {
    if (root.querySelector('script.replay-data')) { replayers.push(start(root)); }
  });
  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) { return; }
    if (!replayers.length) { return; }
    var chosen = replayers[0];
    replayers.forEach(function (r) { if (r.root.contains(document.activeElement)) { chosen = r; } });
    var moves = {ArrowRight: 1, ArrowLeft: -1, End: chosen.steps, Home: -chosen.steps};
    if (moves.hasOwnProperty(event.key)) { chosen.go(moves[event.key]); event.preventDefault(); }
  });
})();
"""
