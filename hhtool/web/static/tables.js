// hhtool serve, the table view: poll the newest hand's mark; when the store changed, fetch the page again
// and put its tables in place of these (nothing else on the page moves).
(function () {
  'use strict';
  var every = 2000, seen = null;
  var here = document.getElementById('tables');
  if (!here || !window.fetch) { return; }
  function redraw() {
    return fetch(location.pathname + location.search, {cache: 'no-store'}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (!html) { return; }
      var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('tables');
      if (fresh) { here.innerHTML = fresh.innerHTML; here.setAttribute('data-drawn', String(Date.now())); }
    });
  }
  function poll() {
    fetch('/api/latest', {headers: {'Accept': 'application/json'}, cache: 'no-store'}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (mark) {
      if (!mark) { return null; }
      var status = document.getElementById('import-status');
      if (status && mark.import) { status.textContent = mark.import.text; }
      var changed = seen !== null && (mark.hands !== seen.hands || mark.key !== seen.key);
      seen = mark;
      return changed ? redraw() : null;
    }).catch(function () {}).then(function () { setTimeout(poll, every); });
  }
  poll();
})();
