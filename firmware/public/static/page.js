// The live table: follow the server's events, swap in each new snapshot, and say when the table is gone.
// The page only reads: it never sends anything to the table but the request for its events.
(function () {
  "use strict";
  var body = document.body;
  var view = body.dataset.view;
  var banner = document.getElementById("offline");
  var main = document.getElementById("table");
  var source = null;
  var watchdog = null;
  var QUIET_MS = 12000;  // the server says it is alive every few seconds; silence this long means it is gone

  function setOffline(offline) {
    if (banner) banner.hidden = !offline;
    body.classList.toggle("is-offline", offline);
  }

  function heard() {
    setOffline(false);
    clearTimeout(watchdog);
    watchdog = setTimeout(function () { setOffline(true); reconnect(); }, QUIET_MS);
  }

  function reconnect() {
    if (source) source.close();
    source = null;
    setTimeout(connect, 1000);
  }

  function connect() {
    if (source) return;
    source = new EventSource("/events");
    source.addEventListener("snapshot", function (event) {
      heard();
      var data = JSON.parse(event.data);
      if (data.view !== view) { location.reload(); return; }  // live page <-> report
      if (main && String(data.serial) !== body.dataset.serial) {
        main.innerHTML = data.html;
        body.dataset.serial = String(data.serial);
        document.title = data.title;
      }
    });
    source.addEventListener("alive", heard);
    source.onerror = function () {
      setOffline(true);
      if (source && source.readyState === EventSource.CLOSED) reconnect();
    };
  }

  connect();
})();
