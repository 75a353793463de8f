// hhtool serve: rows that open their link, and new hands shown on an open page without a reload.
(function () {
  'use strict';
  // a click anywhere on a row opens its link (the row's own links and forms keep theirs)
  document.addEventListener('click', function (event) {
    var row = event.target.closest && event.target.closest('tr[data-href]');
    if (!row || event.target.closest('a, button, input, form, summary')) { return; }
    if (window.getSelection && String(window.getSelection())) { return; }
    window.location.href = row.getAttribute('data-href');
  });
  // typing in a field never steps the replayer (its keys are the page's, not the field's)
  window.addEventListener('keydown', function (event) {
    var t = event.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) { event.stopPropagation(); }
  }, true);
  // live: poll the newest hand's mark; when the import stored more, say so (the hands list, first page,
  // reloads itself; elsewhere a link reloads)
  if (document.body.getAttribute('data-live') !== 'yes' || !window.fetch) { return; }
  var seen = null, every = 2000;
  var onFirstHandsPage = location.pathname === '/hands' && !/[?&](after|before)=/.test(location.search);
  function poll() {
    fetch('/api/latest', {headers: {'Accept': 'application/json'}, cache: 'no-store'}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (mark) {
      if (!mark) { return; }
      var status = document.getElementById('import-status');
      if (status && mark.import) { status.textContent = mark.import.text; status.title = mark.import.problem || ''; }
      if (seen === null) { seen = mark; return; }
      if (mark.hands !== seen.hands || mark.key !== seen.key) {
        var added = mark.hands - seen.hands;
        if (onFirstHandsPage) { refreshList(); seen = mark; return; }
        document.getElementById('live-words').textContent =
          (added > 0 ? added + ' new hand' + (added === 1 ? '' : 's') : 'The store changed') + ' since this page was drawn.';
        document.getElementById('live-reload').setAttribute('href', location.pathname + location.search);
        document.getElementById('live').hidden = false;
      }
    }).catch(function () {}).then(function () { setTimeout(poll, every); });
  }
  // the hands list's first page: fetch it again and put its new rows on top
  function refreshList() {
    fetch(location.pathname + location.search, {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      var fresh = doc.querySelector('#hands tbody'), here = document.querySelector('#hands tbody');
      if (!fresh) { return; }
      if (!here) { location.reload(); return; }
      var known = {};
      Array.prototype.forEach.call(here.rows, function (row) { known[row.getAttribute('data-href')] = true; });
      here.innerHTML = fresh.innerHTML;
      Array.prototype.forEach.call(here.rows, function (row) {
        if (!known[row.getAttribute('data-href')]) { row.classList.add('fresh'); }
      });
      var count = doc.getElementById('count'), mine = document.getElementById('count');
      if (count && mine) { mine.textContent = count.textContent; }
    });
  }
  setTimeout(poll, 300);
})();
