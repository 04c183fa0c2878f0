/* The referee's offline copies on a shared phone (scoring/offline_copy.py): entries waiting on the phone
   (static/js/offline-entry.js, kept in localStorage under "offline-entry:<owner>:<table>") and the pages the
   service worker kept (caches "referee-pages-v2:<owner>", static/js/referee-sw.js) belong to one user, the
   owner id the logout form carries (templates/base.html). Loaded on every page, as the logout form is:
   - logging out clears them, after asking when entries wait ("2 hands not sent yet: log out anyway?"), so a
     referee never loses entries unseen; the logout waits for the kept pages to go only where a worker may
     have kept some (the flag "referee-pages:kept", set by static/js/offline-entry.js);
   - a page of another user than the one this phone last saw (someone else logged in) clears the previous
     user's; a page of nobody (a login ended) clears nothing: its owner may log in again and send them. */
(function () {
  "use strict";

  var PREFIX = "offline-entry:";
  var KEPT = "referee-pages:kept"; // set by static/js/offline-entry.js once the worker may keep pages here
  var LAST = PREFIX + "owner";
  var form = document.querySelector("form[data-offline-owner]");
  if (!form || !window.localStorage) return;
  var owner = form.getAttribute("data-offline-owner");

  function keys(start) {
    var found = [];
    for (var i = 0; i < window.localStorage.length; i++) {
      var name = window.localStorage.key(i);
      if (name && name.indexOf(start) === 0) found.push(name);
    }
    return found;
  }

  // Whatever this user's queues hold, refused entries included: none of it reached the server.
  function unsent() {
    var items = [];
    keys(PREFIX + owner + ":").forEach(function (name) {
      try { items = items.concat(JSON.parse(window.localStorage.getItem(name)) || []); } catch (e) { /* unreadable */ }
    });
    return items;
  }

  // Every queue and every kept page on this phone but those of `spared` (an owner id, or "" at logout);
  // the worker answers no page without its owner's cache.
  function forget(spared) {
    keys(PREFIX).forEach(function (name) {
      if (!spared || name.indexOf(PREFIX + spared + ":") !== 0) window.localStorage.removeItem(name);
    });
    if (!spared) window.localStorage.removeItem(KEPT);
    if (!window.caches) return Promise.resolve();
    return window.caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        if (spared && name === "referee-pages-v2:" + spared) return false;
        return name.indexOf("referee-pages") === 0 || (!spared && name.indexOf("referee-owner") === 0);
      }).map(function (name) { return window.caches.delete(name); }));
    });
  }

  var last = window.localStorage.getItem(LAST);
  if (last !== owner) {
    if (last) forget(owner);
    window.localStorage.setItem(LAST, owner);
  }

  var leaving = false;
  form.addEventListener("submit", function (event) {
    if (leaving) { event.preventDefault(); return; }
    var items = unsent();
    if (items.length) {
      var hands = items.every(function (item) { return item.hand; });
      var name = (hands ? "data-unsent" : "data-unsent-entries") + (items.length === 1 ? "-one" : "");
      if (!window.confirm(form.getAttribute(name).replace("{n}", String(items.length)))) {
        event.preventDefault();
        return;
      }
    }
    if (!window.localStorage.getItem(KEPT)) {
      forget(""); // no worker kept pages here: the queues go at once, the logout is sent as it is
      return;
    }
    event.preventDefault();
    leaving = true;
    function go() { form.submit(); }
    // Cleared before the logout is sent; a phone slow to clear its caches still logs out.
    Promise.race([forget(""), new Promise(function (done) { window.setTimeout(done, 3000); })]).then(go, go);
  });
})();
