// Notices while a page is open, and browser notifications when this person allowed them.
//
// window.siteNotices is the shared helper: ask() asks the browser's permission (Notification API; it must
// follow a tap), notify(title, body, tag) shows a notification when permission is granted. "My tables"
// (referee-calls.js) uses it for a new call when the referee allowed the sound.
//
// On a player's own page ("My event", #notices: scoring/views_notices.py) it polls the notices address
// with the version the page has (If-None-Match; 304 while nothing changed), and shows each notice it has not
// shown before in the aria-live list, and as a notification if the player pressed "Notify me" (the choice
// kept in localStorage). Each notice is shown once: the ids shown are kept in sessionStorage, and the ids
// the page was drawn with (data-seen) count as shown. No push: nothing arrives once the page is closed.
//
// The same poll follows the player's table (#my-table): each answer carries the table's digest, and when it
// differs from the one the page shows (data-table), the table's fragment is asked for (htmx, the
// "refresh-table" trigger; 304 from the browser's copy if it raced). One request per beat instead of two.
// A fragment that did not arrive (the Wi-Fi) makes the next poll ask afresh, so it is asked for again.
(function () {
  "use strict";

  function supported() {
    return "Notification" in window;
  }

  function granted() {
    return supported() && window.Notification.permission === "granted";
  }

  function ask() {
    if (!supported()) return Promise.resolve("unsupported");
    if (window.Notification.permission !== "default") return Promise.resolve(window.Notification.permission);
    return new Promise(function (resolve) {
      // Older browsers take a callback and return nothing; newer ones return a promise.
      var answer = window.Notification.requestPermission(resolve);
      if (answer && answer.then) answer.then(resolve);
    });
  }

  function notify(title, body, tag) {
    if (!granted()) return false;
    try {
      new window.Notification(title, { body: body, tag: tag || undefined });
      return true;
    } catch (e) {
      return false; // Chrome on Android allows notifications from a service worker only
    }
  }

  function stored(storage, key, fallback) {
    try {
      var value = window[storage].getItem(key);
      return value === null ? fallback : value;
    } catch (e) {
      return fallback; // storage refused (private mode)
    }
  }

  function store(storage, key, value) {
    try {
      window[storage].setItem(key, value);
    } catch (e) {
      // kept for this page only
    }
  }

  window.siteNotices = { supported: supported, granted: granted, ask: ask, notify: notify };

  var region = document.getElementById("notices");
  if (!region) return;
  var list = document.getElementById("notice-list");
  var button = document.getElementById("notify-me");
  var state = document.getElementById("notify-state");
  var WANT = "notices-notify";
  var SHOWN = "notices-shown-" + region.getAttribute("data-event");
  var version = region.getAttribute("data-version");
  var table = document.getElementById("my-table");
  var tableShown = region.getAttribute("data-table") || "";
  var every = Math.max(1, parseInt(region.getAttribute("data-poll"), 10) || 5) * 1000;

  var shown = {};
  stored("sessionStorage", SHOWN, "")
    .split(" ")
    .concat((region.getAttribute("data-seen") || "").split(" "))
    .forEach(function (id) {
      if (id) shown[id] = true;
    });
  function remember() {
    store("sessionStorage", SHOWN, Object.keys(shown).join(" "));
  }
  remember();

  function wanted() {
    return stored("localStorage", WANT, "0") === "1" && granted();
  }

  function drawButton() {
    var on = wanted();
    button.textContent = button.getAttribute(on ? "data-on" : "data-off");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    state.textContent =
      supported() && window.Notification.permission === "denied" ? button.getAttribute("data-blocked") : "";
  }

  if (button && supported()) {
    button.parentNode.hidden = false;
    drawButton();
    button.addEventListener("click", function () {
      if (wanted()) {
        store("localStorage", WANT, "0");
        drawButton();
        return;
      }
      ask().then(function (answer) {
        store("localStorage", WANT, answer === "granted" ? "1" : "0");
        drawButton();
      });
    });
  }

  function show(notice, title) {
    var item = document.createElement("li");
    item.className = "notice";
    item.setAttribute("data-notice", notice.id);
    item.textContent = notice.text;
    list.insertBefore(item, list.firstChild);
    if (wanted()) notify(title, notice.text, notice.id);
  }

  function followTable(digest) {
    if (!table || !window.htmx || digest === undefined || digest === tableShown) return;
    tableShown = digest;
    window.htmx.trigger(table, "refresh-table");
  }

  if (table) {
    table.addEventListener("htmx:afterRequest", function (event) {
      if (event.target !== table || event.detail.successful) return;
      tableShown = ""; // not shown: the next poll's answer (a version asked afresh) asks for it again
      version = "";
    });
  }

  function received(answer) {
    version = answer.version;
    followTable(answer.table);
    answer.notices.forEach(function (notice) {
      if (shown[notice.id]) return;
      shown[notice.id] = true;
      show(notice, answer.title);
    });
    remember();
  }

  function poll() {
    window
      .fetch(region.getAttribute("data-url"), {
        credentials: "same-origin",
        cache: "no-store",
        headers: { "If-None-Match": version, Accept: "application/json" },
      })
      .then(function (response) {
        if (response.status === 403) return "stop"; // signed out in another tab
        if (response.status !== 200) return null; // 304: nothing changed
        return response.json().then(received);
      })
      .catch(function () {
        return null; // the hall's Wi-Fi dropped: ask again next time
      })
      .then(function (outcome) {
        if (outcome !== "stop") window.setTimeout(poll, every);
      });
  }

  window.setTimeout(poll, every);
})();
