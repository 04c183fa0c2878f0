// "My tables": a short beep when a new call for a referee arrives in the polled list (#referee-calls),
// if this referee allowed it (the checkbox; the choice kept in this browser's localStorage). WebAudio
// needs a tap before it may sound, which the checkbox gives. The same tap asks the browser's permission for
// notifications, and a new call is also shown as one when granted (window.siteNotices, notices.js).
(function () {
  "use strict";
  var KEY = "referee-call-sound";
  var box = document.getElementById("call-sound");
  var list = document.getElementById("referee-calls");
  if (!box || !list) return;
  var audio = null;

  function ids() {
    var found = {};
    list.querySelectorAll("[data-call]").forEach(function (item) {
      found[item.getAttribute("data-call")] = true;
    });
    return found;
  }

  function ready() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
    return audio;
  }

  function beep() {
    var context = ready();
    if (!context) return;
    var tone = context.createOscillator();
    var gain = context.createGain();
    tone.type = "sine";
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.25, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.35);
    tone.connect(gain).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.35);
  }

  try {
    box.checked = window.localStorage.getItem(KEY) === "1";
  } catch (e) {
    box.checked = false; // storage refused (private mode): the box starts unticked
  }
  box.addEventListener("change", function () {
    try {
      window.localStorage.setItem(KEY, box.checked ? "1" : "0");
    } catch (e) {
      // kept for this page only
    }
    if (box.checked) {
      ready();
      if (window.siteNotices) window.siteNotices.ask();
    }
  });

  function announce(id) {
    var item = list.querySelector('[data-call="' + id + '"]');
    var what = item ? item.querySelector("strong") : null;
    if (what && window.siteNotices) window.siteNotices.notify(document.title, what.textContent, "call-" + id);
  }

  var known = ids();
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.target !== list) return;
    var now = ids();
    var fresh = Object.keys(now).filter(function (id) {
      return !known[id];
    });
    known = now;
    list.setAttribute("data-new-call", fresh.length ? "1" : "0");
    if (fresh.length && box.checked) {
      beep();
      fresh.forEach(announce);
    }
  });
})();
