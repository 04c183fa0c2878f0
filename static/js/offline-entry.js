/* Entry that survives the Wi-Fi: the referee's table page keeps each entry of its forms marked data-offline
   (a hand, session totals, a penalty, a lateness) on the phone (localStorage) when the connection is gone,
   with its token (entry_token) and what the page showed (expected_number, _position, _version), and sends
   them one at a time, in order, when the connection is back. The server stores each token once however often
   it is sent (scoring/services/entry_tokens.py) and refuses an entry whose table changed meanwhile: that
   entry stays listed, with the reason, to be entered again, never dropped unseen. The box
   (templates/scoring/referee/_offline_queue.html) always says what waits.
   While hands or penalties wait, the scoreboard, its wind column and the next hand's number are shown as if
   they were sent, marked "not sent yet": the winds and the points are looked up in what the server gave the
   page (#offline-ahead: the rule set's winds of the coming hands, its points table and its penalty table,
   views_referee_table.py offline_ahead), so the phone never scores an entry itself; the server's figures
   replace them once sent.
   Forms marked data-online-only (confirming, signing with a PIN) are not kept: offline they say so.
   Also registers the referee pages' service worker (static/js/referee-sw.js) on every page that includes
   templates/scoring/referee/_installable.html ("My tables" too). The queue is the logged-in user's
   (static/js/offline-logout.js clears it at logout, after asking). */
(function () {
  "use strict";

  // After the page's load (a worker activated while the page still loads does not take it over in
  // Chromium), the page's own files then in the performance list.
  function install(link) {
    navigator.serviceWorker.register(link.getAttribute("data-worker"), { scope: link.getAttribute("data-scope") })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        var keepUrls = [window.location.pathname + window.location.search];
        performance.getEntriesByType("resource").forEach(function (entry) {
          var url = new URL(entry.name);
          if (url.origin === window.location.origin && url.pathname.indexOf("/static/") === 0) keepUrls.push(url.pathname + url.search);
        });
        // The logout clears what the worker keeps (static/js/offline-logout.js).
        window.localStorage.setItem("referee-pages:kept", "1");
        if (registration.active) registration.active.postMessage({ keep: keepUrls });
      })
      .catch(function () { /* not installable here (http without localhost): entry still works */ });
  }
  var installable = document.querySelector("link[rel=manifest][data-worker]");
  if ("serviceWorker" in navigator && installable) {
    if (document.readyState === "complete") install(installable);
    else window.addEventListener("load", function () { install(installable); });
  }

  var box = document.getElementById("offline-queue");
  if (!box) return;
  // Per user (their owner id, scoring/offline_copy.py): another referee on this phone never sees or sends
  // these; logging out clears them (static/js/offline-logout.js).
  var owner = document.querySelector("form[data-offline-owner]");
  var key = "offline-entry:" + (owner ? owner.getAttribute("data-offline-owner") : "") + ":" +
    box.getAttribute("data-key");
  var sending = false;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(key)) || []; } catch (e) { return []; }
  }
  function save(items) {
    if (items.length) window.localStorage.setItem(key, JSON.stringify(items));
    else window.localStorage.removeItem(key);
  }
  function waiting(items) { return items.filter(function (item) { return !item.failed; }); }
  function offlineForm(f) { return f && f.matches && f.matches("form[data-offline]") ? f : null; }
  function say(name, values) {
    return (box.getAttribute("data-" + name) || "").replace(/\{(\w+)\}/g, function (all, word) {
      return values[word] === undefined ? all : values[word];
    });
  }
  function newToken() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    return "10000000-1000-4000-8000-100000000000".replace(/[018]/g, function (c) {
      return (c ^ (window.crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16);
    });
  }

  // What the referee typed, in words, so the list says which hand is which.
  function summary(f) {
    var parts = [];
    Array.prototype.forEach.call(f.elements, function (field) {
      if (!field.name || field.type === "hidden" || field.type === "submit" || field.type === "button") return;
      if ((field.type === "radio" || field.type === "checkbox") && !field.checked) return;
      var label = field.labels && field.labels[0] ? field.labels[0].textContent.trim() : "";
      if (field.tagName === "SELECT") {
        var option = field.options[field.selectedIndex];
        if (field.value) parts.push(label.replace(/:$/, "") + ": " + option.textContent.trim());
      } else if (field.type === "radio") {
        parts.push(label);
      } else if (field.value) {
        parts.push(label.replace(/:$/, "") + ": " + field.value);
      }
    });
    return parts.join(", ");
  }

  function draw() {
    var items = load();
    var left = waiting(items).length;
    var hands = waiting(items).every(function (item) { return item.hand; });
    var list = box.querySelector("ul");
    var count = box.querySelector("[data-count]");
    box.hidden = !items.length && navigator.onLine;
    box.querySelector("[data-offline]").hidden = navigator.onLine;
    var words = hands ? (left === 1 ? "waiting-one" : "waiting") : (left === 1 ? "entries-one" : "entries");
    count.textContent = left ? say(words, { n: left }) : "";
    list.textContent = "";
    items.forEach(function (item, index) {
      var li = document.createElement("li");
      li.setAttribute("data-form", item.form);
      var text = document.createElement("span");
      if (item.failed) {
        li.className = "error";
        text.textContent = say("failed", { what: item.title, reason: item.failed }) + " (" + item.summary + ")";
        li.appendChild(text);
        [["again", function () { enterAgain(index); }], ["remove", function () { remove(index); }]].forEach(
          function (pair) {
            var button = document.createElement("button");
            button.type = "button";
            button.className = "secondary";
            button.textContent = say(pair[0], {});
            button.addEventListener("click", pair[1]);
            li.appendChild(document.createTextNode(" "));
            li.appendChild(button);
          });
      } else {
        text.textContent = say("queued", { what: item.title }) + " (" + item.summary + ")";
        li.appendChild(text);
      }
      list.appendChild(li);
    });
    advance(waiting(items));
    onlineOnly();
  }

  var ahead = null;
  try { ahead = JSON.parse(document.getElementById("offline-ahead").textContent); } catch (e) { ahead = null; }

  function fieldOf(item, name) {
    var pair = item.fields.find(function (p) { return p[0] === name; });
    return pair ? pair[1] : "";
  }

  // A waiting entry's points to each seat looked up in one of the rule set's tables as PointsTable.lookup
  // does it (scoring/rules/points_table.py, whose tests check it against the rule set's scoring): the longest
  // shape of the form's choices it lists ("discard:E:W", or "draw" whoever was chosen), base + value * per, plus
  // what its terms add (each value of a field sent several times adds once: NMJL's dead hands), a choice
  // of its fills standing for other fields (NMJL's card hand: the card's value). Null, shown "?", when the
  // table cannot say (the server will refuse such a hand, reads it from its tiles, or the rule set has no
  // table).
  function lookup(table, item) {
    if (!table) return null;
    var values = {};
    item.fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    function all(name) { return values[name] && values[name].length ? values[name] : [""]; }
    function first(name) { return all(name)[0]; }
    if ((table.unknown || []).some(function (name) { return all(name).some(function (v) { return v; }); })) {
      return null;
    }
    var fills = table.fills || {};
    var unlisted = Object.keys(fills).some(function (name) {
      var chosen = first(name);
      if (!chosen) return false;
      if (!fills[name][chosen]) return true;
      Object.keys(fills[name][chosen]).forEach(function (filled) { values[filled] = [fills[name][chosen][filled]]; });
      return false;
    });
    if (unlisted) return null;
    var parts = table.keys.map(first);
    var points = null;
    for (var n = parts.length; n > 0 && !points; n--) {
      var shape = parts.slice(0, n);
      if (shape.indexOf("") >= 0 || !table.shapes[shape.join(":")]) continue;
      var base = table.shapes[shape.join(":")][0], per = table.shapes[shape.join(":")][1];
      var text = first(table.value).trim();
      if (!/^-?[0-9]+$/.test(text)) {
        if (Object.keys(per).some(function (seat) { return per[seat]; })) return null; // a win without its value
        text = "0";
      }
      points = {};
      Object.keys(base).forEach(function (seat) { points[seat] = base[seat] + Number(text) * per[seat]; });
    }
    if (!points) return null;
    (table.terms || []).forEach(function (term) {
      var keys = [""]; // every combination of the term's fields' values, each with a leading ":"
      term.keys.forEach(function (name) {
        var longer = [];
        keys.forEach(function (key) {
          all(name).forEach(function (value) { longer.push(key + ":" + value); });
        });
        keys = longer;
      });
      keys.forEach(function (key) {
        var adds = term.shapes[key.slice(1)];
        if (adds) Object.keys(adds).forEach(function (seat) { points[seat] += adds[seat]; });
      });
    });
    return points;
  }

  // What the server drew, kept once, so the page can always go back to it.
  function sent(element) {
    if (!element.hasAttribute("data-sent")) element.setAttribute("data-sent", element.textContent);
    return element.getAttribute("data-sent");
  }
  function shown(element, text, unsent) {
    element.textContent = text;
    element.classList.toggle("unsent", unsent);
  }

  // The entries that move the totals: hands (the hand table) and penalties (the penalty table, from the
  // rule set's penalty_effect); the other entries (lateness, session totals) are not shown ahead.
  function tableOf(item) {
    if (item.hand) return ahead && ahead.points;
    return ahead && item.form === ahead.penalty_form ? ahead.penalties : undefined;
  }

  // The scoreboard, its wind column and the next hand's number as if the waiting entries were sent.
  function advance(items) {
    var board = document.getElementById("scoreboard");
    if (!board) return;
    var scored = items.filter(function (item) { return tableOf(item) !== undefined; });
    var hands = items.filter(function (item) { return item.hand; });
    var n = hands.length, m = scored.length;
    var next = Number(board.getAttribute("data-next")) + n;
    board.querySelectorAll("td[data-seat]").forEach(function (cell) {
      var total = Number(sent(cell));
      if (sent(cell).trim() === "" || isNaN(total)) return; // hidden until a blind second entry agrees
      scored.forEach(function (item) {
        var points = lookup(tableOf(item), item);
        total += points && points[cell.getAttribute("data-seat")] !== undefined ?
          points[cell.getAttribute("data-seat")] : NaN;
      });
      shown(cell, m ? (isNaN(total) ? "?" : String(total)) : sent(cell), m > 0);
    });
    // Table points follow the whole session's ranking: not known here until the entries are sent.
    board.querySelectorAll("td[data-table-points]").forEach(function (cell) {
      shown(cell, m ? "" : sent(cell), m > 0);
    });
    var caption = board.querySelector("caption[data-unsent]");
    if (m && !caption) {
      caption = document.createElement("caption");
      caption.setAttribute("data-unsent", "");
      board.insertBefore(caption, board.firstChild);
    }
    if (caption) {
      var words = n === m ? (n === 1 ? "waiting-one" : "waiting") : (m === 1 ? "entries-one" : "entries");
      caption.textContent = m ? say(words, { n: m }) : "";
      caption.hidden = !m;
    }
    var winds = ahead && ahead.winds[next - ahead.first];
    var before = ahead && ahead.winds[Number(board.getAttribute("data-next")) - ahead.first];
    var head = board.querySelector("th[data-wind-head]");
    if (head) shown(head, sent(head).replace(/\d+/, String(next)), n > 0);
    board.querySelectorAll("tbody tr").forEach(function (row) {
      var seat = row.querySelector("td[data-seat]");
      var wind = row.querySelector("span.wind");
      if (!seat || !wind) return;
      var cell = wind.parentNode;
      if (!cell.hasAttribute("data-sent-html")) cell.setAttribute("data-sent-html", cell.innerHTML);
      if (!n || !winds) {
        if (cell.classList.contains("unsent")) cell.innerHTML = cell.getAttribute("data-sent-html");
        cell.classList.remove("unsent");
        return;
      }
      var letter = winds.split(":")[1].charAt(ahead.seats.indexOf(seat.getAttribute("data-seat")));
      var now = document.createElement("span");
      now.className = "wind";
      now.textContent = ahead.short[letter] || "";
      cell.textContent = "";
      cell.appendChild(now);
      if (letter === "E") cell.appendChild(document.createTextNode(" " + ahead.dealer));
      cell.classList.add("unsent");
    });
    var said = document.getElementById("next-hand");
    if (said) {
      var text = sent(said).replace(/\d+/, String(next));
      var was = before && before.split(":")[0], now = winds && winds.split(":")[0];
      if (was && now && was !== now) text = text.replace(ahead.names[was], ahead.names[now]);
      shown(said, text, n > 0);
    }
    // The hand form follows the waiting hands (a page opened from the phone's copy showed the number the
    // copy had).
    var f = document.getElementById("hand-form");
    if (f && f.elements.expected_number && n) {
      var after = Number(fieldOf(hands[n - 1], "expected_number")) + 1;
      if (after > Number(f.elements.expected_number.value)) {
        f.elements.expected_number.value = after;
        var title = f.querySelector("h2");
        if (title) title.textContent = title.textContent.replace(/\d+/, String(after));
      }
    }
  }

  // The form gets ready for the next hand as the server's answer would have made it.
  function nextHand(f, number) {
    f.reset();
    f.elements.expected_number.value = number;
    f.elements.entry_token.value = newToken();
    var title = f.querySelector("h2");
    if (title) title.textContent = title.textContent.replace(/\d+/, String(number));
    f.querySelectorAll("[role=status]").forEach(function (said) { said.remove(); });
  }

  // The form made ready for the next entry, as the page loaded anew would be: the counts it showed moved on.
  function nextEntry(f) {
    var shown = {};
    ["expected_position", "expected_version"].forEach(function (name) {
      if (f.elements[name] && f.elements[name].value !== "") shown[name] = Number(f.elements[name].value) + 1;
    });
    f.reset();
    Object.keys(shown).forEach(function (name) { f.elements[name].value = shown[name]; });
    f.elements.entry_token.value = newToken();
    // What the form shows follows its choices again (site.js: data-shown-by).
    f.querySelectorAll("select").forEach(function (select) {
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  function keep(f) {
    var items = load();
    var hand = !!f.elements.expected_number;
    var fields = [];
    new FormData(f).forEach(function (value, name) { fields.push([name, String(value)]); });
    var title = f.querySelector("h2");
    items.push({
      form: f.id, action: f.getAttribute("action").split("#")[0], hand: hand,
      title: title ? title.textContent.trim() : "", fields: fields, summary: summary(f),
    });
    save(items);
    if (hand) nextHand(f, Number(f.elements.expected_number.value) + 1);
    else nextEntry(f);
    draw();
    send();
    return true;
  }

  function enterAgain(index) {
    var items = load();
    var item = items[index];
    var f = item && document.getElementById(item.form);
    if (!item || !f) return;
    item.fields.forEach(function (pair) {
      if (pair[0] === "csrfmiddlewaretoken" || pair[0] === "expected_number" || pair[0] === "entry_token") return;
      var fields = f.querySelectorAll("[name='" + pair[0] + "']");
      fields.forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") field.checked = field.value === pair[1];
        else field.value = pair[1];
        field.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    items.splice(index, 1);
    save(items);
    draw();
    f.scrollIntoView();
  }

  function remove(index) {
    var items = load();
    items.splice(index, 1);
    save(items);
    draw();
  }

  // The page answered with the refusal: the reason is on the refused form, or at its top when that form is
  // no longer shown (the table was completed meanwhile).
  function reasonFrom(response, item) {
    return response.text().then(function (html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var found = page.querySelector("#" + item.form + " .errorlist") || page.querySelector("#messages .error") ||
        page.querySelector(".errorlist");
      return (found && found.textContent.trim()) || say("refused", {});
    });
  }

  // In order, one at a time; a hand refused is kept with its reason, the next ones are still sent.
  function send() {
    if (sending || !navigator.onLine) return;
    var next = waiting(load())[0];
    if (!next) return;
    sending = true;
    var body = new URLSearchParams();
    next.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var csrf = body.get("csrfmiddlewaretoken") || "";
    fetch(next.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "X-Entry-Replay": "1", "X-CSRFToken": csrf }, // answered 204 when stored
    }).then(function (response) {
      if (response.status === 204) return "";
      if (response.status === 422) return reasonFrom(response, next);
      return null; // the server not ready (503), signed out (a redirect): kept, tried again later
    }).then(function (failed) {
      sending = false;
      if (failed === null) return;
      var items = load();
      var index = items.findIndex(function (item) { return tokenOf(item) === tokenOf(next); });
      if (index >= 0) {
        if (failed === "") items.splice(index, 1);
        else items[index].failed = failed;
      }
      save(items);
      if (waiting(items).length) { send(); return; }
      // All answered: the whole page anew shows what the table holds now, its next hand's form included
      // (what was refused stays in the list, to be entered again in that form).
      window.location.reload();
    }, function () {
      sending = false; // the connection went again: kept
      draw();
    });
  }
  function tokenOf(item) {
    var pair = item.fields.find(function (p) { return p[0] === "entry_token"; });
    return pair ? pair[1] : "";
  }

  // Before htmx sends it: while offline, or while earlier hands still wait (they go first, in order).
  document.addEventListener("submit", function (event) {
    var f = offlineForm(event.target);
    if (!f) return;
    if (navigator.onLine && !waiting(load()).length) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    keep(f);
  }, true);

  // site.js asks first when an htmx post of the hand form could not be sent (the Wi-Fi dropped as it left).
  window.offlineEntry = {
    keep: function (f) { return !!offlineForm(f) && keep(f); },
  };

  // Confirming and signing change no result and are never kept: offline their buttons wait, and say why.
  function onlineOnly() {
    document.querySelectorAll("form[data-online-only]").forEach(function (f) {
      var said = f.querySelector("[data-needs-connection]");
      f.querySelectorAll("button").forEach(function (button) {
        if (!navigator.onLine && !button.disabled) {
          button.disabled = true;
          button.setAttribute("data-offline-disabled", "");
        } else if (navigator.onLine && button.hasAttribute("data-offline-disabled")) {
          button.disabled = false;
          button.removeAttribute("data-offline-disabled");
        }
      });
      if (navigator.onLine) {
        if (said) said.remove();
      } else if (!said) {
        said = document.createElement("p");
        said.className = "notice";
        said.setAttribute("role", "status");
        said.setAttribute("data-needs-connection", "");
        said.textContent = f.getAttribute("data-online-only");
        f.appendChild(said);
      }
    });
  }
  document.addEventListener("submit", function (event) {
    if (navigator.onLine || !(event.target.matches && event.target.matches("form[data-online-only]"))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    onlineOnly();
  }, true);

  // A page opened from the phone's copy (no network) carries the token its form had when the copy was
  // kept, perhaps already given to a waiting entry: each form gets a token no waiting entry has.
  function freshTokens() {
    var used = load().map(tokenOf);
    document.querySelectorAll("form[data-offline]").forEach(function (f) {
      if (f.elements.entry_token && used.indexOf(f.elements.entry_token.value) >= 0) {
        f.elements.entry_token.value = newToken();
      }
    });
  }

  window.addEventListener("online", function () { draw(); send(); });
  window.addEventListener("offline", draw);
  window.setInterval(send, 15000);
  freshTokens();
  draw();
  send();
})();
