/* The referee pages' service worker (served as /referee/sw.js by scoring/views_offline.py, scope /referee/):
   it keeps the page shell and the static files on the phone, so a table page the referee opened before opens
   with no network, and its hand form keeps hands on the phone (static/js/offline-entry.js).
   Pages: network first, the copy kept when the network is gone. Static files: kept, their names change with
   their content (ManifestStaticFilesStorage). Posts are never touched: the page's own script queues them.
   Pages are kept per user, on a shared phone too (scoring/offline_copy.py): only a page that says whose it is
   (X-Offline-Copy: owner=<id>; until=<time>) is kept, in that owner's cache; a page of another owner makes
   this phone forget the previous one's; with no network only the last owner's copies are shown, and none
   once their login has ended. Logging out deletes them from the page (static/js/offline-logout.js). */
"use strict";

var STATIC = "referee-static-v2";
var PAGES = "referee-pages-v2:"; // + the owner id
var OWNER = "referee-owner-v2"; // one entry: whose pages this phone keeps, and until when
var OWNER_KEY = "/referee/sw-owner";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name !== STATIC && name !== OWNER && name.indexOf(PAGES) !== 0;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// "owner=<id>; until=<unix time>" from a page's answer, or null (not a logged-in referee's page).
function copyOf(response) {
  var said = response.headers.get("X-Offline-Copy") || "";
  var owner = /owner=([0-9a-f]+)/.exec(said), until = /until=(\d+)/.exec(said);
  return owner && until ? { owner: owner[1], until: Number(until[1]) } : null;
}

function lastOwner() {
  return caches.open(OWNER).then(function (cache) { return cache.match(OWNER_KEY); }).then(function (found) {
    return found ? found.json() : null;
  }).catch(function () { return null; });
}

// This phone's user now: another one's pages are deleted before this one's are kept.
function becomeOwner(copy) {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PAGES) === 0 && name !== PAGES + copy.owner;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return caches.open(OWNER); }).then(function (cache) {
    return cache.put(OWNER_KEY, new Response(JSON.stringify(copy), { headers: { "Content-Type": "application/json" } }));
  });
}

function keepPage(request, response) {
  var copy = copyOf(response);
  if (!copy || !response.ok || response.type !== "basic") return Promise.resolve();
  return becomeOwner(copy).then(function () { return caches.open(PAGES + copy.owner); }).then(function (cache) {
    return cache.put(request, response);
  });
}

function keepStatic(request, response) {
  if (!response.ok || response.type !== "basic") return Promise.resolve();
  return caches.open(STATIC).then(function (cache) { return cache.put(request, response); });
}

function isStatic(url) {
  return new URL(url, self.location.origin).pathname.indexOf("/static/") === 0;
}

// The page says what it was made of (its address and the files it loaded before this worker controlled it).
// It is taken over now too: the claim made on activation can miss a page still loading (Chromium).
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.keep;
  if (!Array.isArray(urls)) return;
  event.waitUntil(Promise.all([self.clients.claim(), Promise.all(urls.map(function (url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      return isStatic(url) ? keepStatic(url, response) : keepPage(url, response);
    }).catch(function () { /* one file missing does not stop the others */ });
  }))]));
});

// The last owner's copy, while their login lasts.
function keptPage(request) {
  return lastOwner().then(function (copy) {
    if (!copy || copy.until * 1000 < Date.now()) return null;
    return caches.open(PAGES + copy.owner).then(function (cache) {
      // ignoreVary: a page kept at the page's word (the message above) was fetched without the headers a
      // navigation carries (Vary: Accept-Language, Cookie): still the copy to show with no network.
      return cache.match(request, { ignoreSearch: true, ignoreVary: true });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.open(STATIC).then(function (cache) {
      return cache.match(request).then(function (kept) {
        return kept || fetch(request).then(function (response) {
          keepStatic(request, response.clone());
          return response;
        });
      });
    }));
  } else if (request.mode === "navigate" && url.pathname.indexOf("/referee/") === 0) {
    event.respondWith(fetch(request).then(function (response) {
      event.waitUntil(keepPage(request, response.clone()));
      return response;
    }, function () {
      return keptPage(request).then(function (kept) { return kept || Response.error(); });
    }));
  }
});
