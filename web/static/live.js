// courrier's one script: when anyone moves, the game page fetches its new
// table and moves and puts them in place (what you typed stays). Without
// JavaScript the page works the same; reload it to see the new moves.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource || !live.dataset.live) return;
  var refreshing = false, again = false;
  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    var typed = document.getElementById("move-text");
    var keep = typed ? typed.value : "";
    var focused = document.activeElement && document.activeElement.id === "move-text";
    fetch(location.pathname, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          live.innerHTML = html;
          var t = document.getElementById("move-text");
          if (t && keep) { t.value = keep; }
          if (t && focused) { t.focus(); }
          live.dataset.refreshed = String(Number(live.dataset.refreshed || "0") + 1);
        }
      })
      .finally(function () {
        refreshing = false;
        if (again) { again = false; refresh(); }
      });
  }
  var source = new EventSource(live.dataset.live);
  source.onmessage = function (e) {
    try {
      var u = JSON.parse(e.data);
      if (u.version > Number(live.dataset.version)) { live.dataset.version = String(u.version); refresh(); }
    } catch (_) { refresh(); }
  };
})();
