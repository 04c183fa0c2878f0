/* The referee pages' service worker (served as /referee/sw.js by scoring/views_offline.py, scope /referee/):
   it keeps the page shell and the static files on the phone, so a table page the referee opened before opens
   with no network, and its hand form keeps hands on the phone (static/js/offline-entry.js).
   Pages: network first, the copy kept when the network is gone. Static files: kept, their names change with
   their content (ManifestStaticFilesStorage). Posts are never touched: the page's own script queues them. */
"use strict";

var CACHE = "referee-pages-v1";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

// The page says what it was made of (its address and the files it loaded before this worker controlled it).
// It is taken over now too: the claim made on activation can miss a page still loading (Chromium).
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.keep;
  if (!Array.isArray(urls)) return;
  event.waitUntil(Promise.all([self.clients.claim(), caches.open(CACHE).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return cache.add(url).catch(function () { /* one file missing does not stop the others */ });
    }));
  })]));
});

function fromNetworkKept(request, cache) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (kept) { return kept || fromNetworkKept(request, cache); });
    }));
  } else if (request.mode === "navigate" && url.pathname.indexOf("/referee/") === 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return fromNetworkKept(request, cache).catch(function () {
        // ignoreVary: a page kept at the page's word (cache.add above) was fetched without the headers a
        // navigation carries (Vary: Accept-Language, Cookie): still the copy to show with no network.
        return cache.match(request, { ignoreSearch: true, ignoreVary: true }).then(function (kept) {
          return kept || Response.error();
        });
      });
    }));
  }
});
