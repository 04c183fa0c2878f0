/* The session clock counts down in the browser (no inline script: the Content-Security-Policy allows
   none). Each [data-clock] element carries the seconds left when the server rendered it
   (data-remaining), the "last hand" threshold (data-last-hand) and data-paused while paused; the time
   left is counted from when the element arrived, so the browser's own clock may be wrong. Polling
   (htmx) replaces the element now and then to pick up pauses and extensions. The words for each state
   are on the .clock-signal element (data-word-*), written by the server in the rule set's words. */
(function () {
  "use strict";

  function shown(seconds) {
    var s = Math.max(0, seconds);
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }

  var STATES = ["running", "paused", "last-hand", "time"];

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      if (!el.clockArrived) el.clockArrived = now;
      var remaining = parseInt(el.dataset.remaining, 10) || 0;
      var paused = el.hasAttribute("data-paused");
      if (!paused) remaining -= Math.floor((now - el.clockArrived) / 1000);
      var lastHand = parseInt(el.dataset.lastHand, 10) || 0;
      var state = remaining <= 0 ? "time" : paused ? "paused" : remaining <= lastHand ? "last-hand" : "running";
      var face = el.querySelector(".clock-face");
      if (face) face.textContent = shown(remaining);
      STATES.forEach(function (name) { el.classList.toggle("clock-" + name, name === state); });
      var signal = el.querySelector(".clock-signal");
      if (signal) {
        var word = signal.getAttribute("data-word-" + state) || "";
        if (signal.textContent !== word) signal.textContent = word;
      }
      el.dataset.state = state;
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  window.setInterval(tick, 1000);
})();
