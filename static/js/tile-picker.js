/* The "enter the tiles" mode of the MCR hand form (templates/scoring/referee/_tile_picker.html).
 *
 * The referee builds the hand from tile pictures; after every change the hand is written, as the JSON of
 * shared/specs/scoring-json.md, into the hand form's hidden "tiles" input and posted to the fan breakdown
 * endpoint (scoring/views_tiles.py), whose partial is shown under the picker. A scored hand fills the fan
 * field; a fan typed by hand that differs from the tiles' score is flagged. Plain JS, no framework.
 */
(function () {
  "use strict";

  var SUITS = [["m", "characters"], ["p", "dots"], ["s", "bamboo"]];
  var HONOURS = ["East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon"];
  var CODES = [];
  var NAMES = {};
  SUITS.forEach(function (suit) {
    for (var n = 1; n <= 9; n++) {
      CODES.push(n + suit[0]);
      NAMES[n + suit[0]] = n + " " + suit[1];
    }
  });
  HONOURS.forEach(function (name, i) {
    CODES.push(i + 1 + "z");
    NAMES[i + 1 + "z"] = name;
  });
  var HINTS = {
    concealed: "Click tiles to add them to the concealed part (without the winning tile).",
    chow: "Click the lowest tile of the chow (1 to 7 of a suit): the chow of three is added.",
    pung: "Click a tile: its pung (three alike) is added as a declared set.",
    kong: "Click a tile: its exposed kong (four alike) is added.",
    ckong: "Click a tile: its concealed kong (four alike) is added.",
    win: "Click the winning tile (it is not part of the concealed tiles above).",
  };
  var FLAGS = ["self_drawn", "last_of_kind", "kong_related", "last_wall_tile"];

  // The page's language: tile names, hints and messages from <script type="application/json" id="tp-words">
  // (templates/scoring/referee/_tile_picker.html); English above and below when it is absent.
  var WORDS = {};
  var source = document.getElementById("tp-words");
  if (source) {
    try { WORDS = JSON.parse(source.textContent) || {}; } catch (e) { WORDS = {}; }
  }
  Object.keys(WORDS.names || {}).forEach(function (code) { NAMES[code] = WORDS.names[code]; });
  Object.keys(WORDS.hints || {}).forEach(function (key) { HINTS[key] = WORDS.hints[key]; });

  // A phrase in the page's language, its {placeholders} filled in.
  function t(key, english, values) {
    var text = (WORDS.phrases && WORDS.phrases[key]) || english;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }

  function order(code) {
    return CODES.indexOf(code);
  }

  function init(root) {
    var form = root.closest("form");
    if (!form || root.tilePicker) return;
    root.tilePicker = true;
    var $ = function (id) { return root.querySelector("#" + id); };
    var tilesInput = form.querySelector("input[name=tiles]");
    var fanInput = form.querySelector("input[name=fan]");
    var winnerSelect = form.querySelector("select[name=winner]");
    var toggle = $("tp-toggle");
    var panel = $("tp-panel");
    var palette = $("tp-palette");
    var breakdown = $("fan-breakdown");
    var warning = $("tp-fan-warning");
    var hint = $("tp-hint");
    var base = root.dataset.tiles;

    var hand = { concealed: [], melds: [], win: null };
    var target = "concealed";
    var lastBasic = null; // the tiles' score without flowers, null while they do not make a hand
    var lastFilled = null; // the score last put in the fan field: a typed fan is kept until the score changes
    var sequence = 0;
    var timer = null;

    // Keep the warning next to the fan field, where the referee looks.
    if (fanInput && fanInput.parentNode) fanInput.parentNode.appendChild(warning);

    function tileElement(code, tag, label) {
      var el = document.createElement(tag);
      if (tag === "button") el.type = "button";
      el.className = "tile";
      el.dataset.code = code;
      if (NAMES[code]) {
        var img = document.createElement("img");
        img.src = base + code + ".svg";
        img.alt = NAMES[code];
        img.width = 30;
        img.height = 40;
        el.appendChild(img);
      } else {
        el.classList.add("unknown"); // a typed code that is no tile: shown as typed, the server says why
        el.textContent = String(code);
      }
      if (label) {
        el.setAttribute("aria-label", label);
        el.title = label;
      }
      return el;
    }

    // The palette: one row per suit, honours last; built when the picker is first opened, so a page where
    // nobody enters tiles loads no tile pictures.
    function buildPalette() {
      if (palette.childElementCount) return;
      ["m", "p", "s", "z"].forEach(function (suit) {
        var row = document.createElement("div");
        row.className = "tp-suit";
        CODES.filter(function (c) { return c[1] === suit; }).forEach(function (code) {
          var button = tileElement(code, "button");
          button.addEventListener("click", function () { add(code); });
          row.appendChild(button);
        });
        palette.appendChild(row);
      });
    }

    function say(text, isError) {
      hint.textContent = text;
      hint.classList.toggle("tile-error", !!isError);
    }

    // The compact text form of the spec ("123m 456p 11z"): digits, then their suit letter.
    function parseCompact(text) {
      var tiles = [];
      var digits = "";
      var chars = text.replace(/[\s,]/g, "").toLowerCase();
      for (var i = 0; i < chars.length; i++) {
        var ch = chars[i];
        if (ch >= "0" && ch <= "9") {
          digits += ch;
        } else if ("mpsz".indexOf(ch) >= 0) {
          if (!digits) return { error: t("suit_first", "the suit letter {letter} has no numbers before it", { letter: ch }) };
          for (var j = 0; j < digits.length; j++) tiles.push(digits[j] + ch);
          digits = "";
        } else {
          return {
            error: t("bad_character", "unexpected character {char} (use numbers and m, p, s or z)",
                     { char: JSON.stringify(ch) })
          };
        }
      }
      if (digits) return { error: t("no_suit", "the numbers at the end have no suit letter (m, p, s or z)") };
      if (!tiles.length) return { error: t("type_first", "type some tiles first, e.g. 123m 456p 11z") };
      return { tiles: tiles };
    }

    // Typed tiles go where the picked ones would: the concealed part, one declared set as typed (the
    // server says what is wrong with a bad one), or the winning tile.
    function addTyped() {
      var input = $("tp-text");
      var parsed = parseCompact(input.value);
      if (parsed.error) {
        say(t("unreadable", "Could not read the typed tiles: {error}.", { error: parsed.error }), true);
        return;
      }
      var tiles = parsed.tiles;
      if (target === "concealed") {
        hand.concealed = hand.concealed.concat(tiles).sort(function (a, b) { return order(a) - order(b); });
      } else if (target === "win") {
        if (tiles.length !== 1) {
          say(t("one_win_tile", "The winning tile is one tile, not {count}.", { count: tiles.length }), true);
          return;
        }
        hand.win = tiles[0];
      } else {
        var meld = { type: target === "ckong" ? "kong" : target, tiles: tiles };
        if (target === "ckong") meld.concealed = true;
        hand.melds.push(meld);
      }
      input.value = "";
      say(HINTS[target], false);
      changed(true);
    }

    function add(code) {
      var n = parseInt(code[0], 10);
      if (target === "concealed") {
        hand.concealed.push(code);
        hand.concealed.sort(function (a, b) { return order(a) - order(b); });
      } else if (target === "chow") {
        if (code[1] === "z" || n > 7) {
          say(t("chow_start", "A chow is three consecutive tiles of one suit, so it cannot start on {tile}: " +
              "click its lowest tile (1 to 7 of characters, dots or bamboo).", { tile: NAMES[code] }), true);
          return;
        }
        hand.melds.push({ type: "chow", tiles: [code, n + 1 + code[1], n + 2 + code[1]] });
      } else if (target === "pung") {
        hand.melds.push({ type: "pung", tiles: [code, code, code] });
      } else if (target === "kong" || target === "ckong") {
        var meld = { type: "kong", tiles: [code, code, code, code] };
        if (target === "ckong") meld.concealed = true;
        hand.melds.push(meld);
      } else if (target === "win") {
        hand.win = code;
      }
      say(HINTS[target], false);
      changed(true);
    }

    function setTarget(name) {
      target = name;
      root.querySelectorAll(".tp-target").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.target === name ? "true" : "false");
      });
      say(HINTS[name], false);
    }
    root.querySelectorAll(".tp-target").forEach(function (b) {
      b.addEventListener("click", function () { setTarget(b.dataset.target); });
    });

    function render() {
      var concealed = $("tp-concealed");
      var melds = $("tp-melds");
      var win = $("tp-win");
      concealed.textContent = "";
      melds.textContent = "";
      win.textContent = "";
      hand.concealed.forEach(function (code, i) {
        var b = tileElement(code, "button", t("remove", "Remove {tile}", { tile: NAMES[code] }));
        b.addEventListener("click", function () { hand.concealed.splice(i, 1); refocus("tp-concealed", i); });
        concealed.appendChild(b);
      });
      hand.melds.forEach(function (meld, i) {
        var kindKey = meld.type === "kong" ? (meld.concealed ? "concealed_kong" : "exposed_kong") : meld.type;
        var kind = t(kindKey, kindKey.replace("_", " "));
        var group = document.createElement("button");
        group.type = "button";
        group.className = "tp-meld";
        group.setAttribute("aria-label", t("remove_set", "Remove the {kind} of {tiles}", {
          kind: kind,
          tiles: meld.tiles.map(function (c) { return NAMES[c] || c; }).join(", "),
        }));
        meld.tiles.forEach(function (code) { group.appendChild(tileElement(code, "span")); });
        var caption = document.createElement("small");
        caption.textContent = kind;
        group.appendChild(caption);
        group.addEventListener("click", function () { hand.melds.splice(i, 1); refocus("tp-melds", i); });
        melds.appendChild(group);
      });
      if (!hand.melds.length) {
        var none = document.createElement("span");
        none.className = "muted";
        none.textContent = t("none", "none");
        melds.appendChild(none);
      }
      if (hand.win) {
        var w = tileElement(hand.win, "button", t("remove_win", "Remove {tile} (winning tile)", { tile: NAMES[hand.win] }));
        w.addEventListener("click", function () { hand.win = null; refocus("tp-win", 0); });
        win.appendChild(w);
      } else {
        var notChosen = document.createElement("span");
        notChosen.className = "muted";
        notChosen.textContent = t("not_chosen", "not chosen");
        win.appendChild(notChosen);
      }
      var needed = Math.max(0, 13 - 3 * hand.melds.length);
      $("tp-count").textContent = t("count", "({count} of {needed})", { count: hand.concealed.length, needed: needed });
      // How many of each tile the hand holds: the palette shows it, and dims a tile once all four are used.
      var used = {};
      hand.concealed.concat(hand.win ? [hand.win] : []).forEach(function (c) { used[c] = (used[c] || 0) + 1; });
      hand.melds.forEach(function (m) { m.tiles.forEach(function (c) { used[c] = (used[c] || 0) + 1; }); });
      palette.querySelectorAll(".tile").forEach(function (b) {
        var count = used[b.dataset.code] || 0;
        b.dataset.used = count ? String(count) : "";
        b.title = NAMES[b.dataset.code] + (count ? " (" + count + " in the hand)" : "");
        b.classList.toggle("used-up", count >= 4);
      });
    }

    // After taking a tile out, keep the keyboard where it was: the next tile of that part, or the palette.
    function refocus(part, index) {
      changed(true);
      var buttons = $(part).querySelectorAll("button");
      var next = buttons[Math.min(index, buttons.length - 1)] || palette.querySelector("button");
      if (next) next.focus();
    }

    function isEmpty() {
      return !hand.concealed.length && !hand.melds.length && !hand.win;
    }

    function flowersValue() {
      var raw = $("tp-flowers").value.trim();
      if (raw === "") return 0;
      var n = Number(raw);
      return Number.isInteger(n) ? n : raw; // a mistyped value goes to the server, which says what is wrong
    }

    function serialise() {
      var data = { concealed: hand.concealed.slice(), melds: hand.melds };
      if (hand.win) data.win_tile = hand.win;
      FLAGS.forEach(function (f) { data[f] = $("tp-" + f).checked; });
      data.seat_wind = $("tp-seat_wind").value;
      data.prevalent_wind = $("tp-prevalent_wind").value;
      data.flowers = flowersValue();
      return JSON.stringify(data);
    }

    function isDraw() {
      var how = form.querySelector("input[name=how]:checked");
      return how && how.value === "draw";
    }

    // After every change: write the hidden input, then ask the server for the breakdown.
    function changed(fillFan) {
      render();
      var open = !panel.hidden;
      if (!open || isEmpty() || isDraw()) {
        if (tilesInput) tilesInput.value = "";
        lastBasic = lastFilled = null;
        var note = document.createElement("p");
        note.className = "muted";
        note.textContent = isDraw() && open
          ? t("draw_no_tiles", "A draw: no tiles are stored.")
          : t("pick_tiles", "Pick tiles to see the fans.");
        breakdown.textContent = "";
        breakdown.appendChild(note);
        checkFan();
        return;
      }
      var json = serialise();
      if (tilesInput) tilesInput.value = json;
      clearTimeout(timer);
      timer = setTimeout(function () { ask(json, fillFan); }, 120);
    }

    function ask(json, fillFan) {
      var mine = ++sequence;
      var body = new FormData();
      body.append("tiles", json);
      var token = form.querySelector("input[name=csrfmiddlewaretoken]");
      root.setAttribute("aria-busy", "true");
      fetch(root.dataset.url, {
        method: "POST",
        body: body,
        headers: { "X-CSRFToken": token ? token.value : "", "HX-Request": "true" },
        credentials: "same-origin",
      }).then(function (response) {
        return response.text().then(function (text) { return { status: response.status, text: text }; });
      }).then(function (answer) {
        if (mine !== sequence) return; // a newer change has been sent meanwhile
        var holder = document.createElement("div");
        holder.innerHTML = answer.text;
        var part = holder.querySelector(".fan-breakdown");
        if (!part) {
          showError(t("not_scored", "The tiles could not be scored (status {status}); are you still logged in? " +
                      "You can still type the fan points.", { status: answer.status }));
          lastBasic = null;
        } else {
          breakdown.textContent = "";
          breakdown.appendChild(part);
          if (part.dataset.state === "ok") {
            lastBasic = parseInt(part.dataset.basic, 10);
            if (fillFan && fanInput && lastBasic !== lastFilled) fanInput.value = String(lastBasic);
            lastFilled = lastBasic;
          } else {
            lastBasic = lastFilled = null;
          }
        }
        checkFan();
      }).catch(function () {
        if (mine !== sequence) return;
        lastBasic = null;
        showError(t("unreachable", "The server could not be reached to score the tiles."));
        checkFan();
      }).finally(function () {
        if (mine === sequence) root.removeAttribute("aria-busy");
      });
    }

    function showError(text) {
      var p = document.createElement("p");
      p.className = "tile-error";
      p.setAttribute("role", "alert");
      p.textContent = text;
      breakdown.textContent = "";
      breakdown.appendChild(p);
    }

    function checkFan() {
      var typed = fanInput ? fanInput.value.trim() : "";
      if (lastBasic === null || typed === "" || parseInt(typed, 10) === lastBasic) {
        warning.hidden = true;
        warning.textContent = "";
        return;
      }
      var values = { tiles: lastBasic, typed: typed };
      warning.textContent = parseInt(typed, 10) > lastBasic
        ? t("claim_above", "The tiles score {tiles} fan points (flowers included), not {typed}: a winner may not " +
            "claim more (rule 65a); correct the fan points or the tiles before saving.", values)
        : t("claim_below", "The tiles score {tiles} fan points (flowers included); {typed} is a lower claim, " +
            "which stands if the winner makes it (rule 65b).", values);
      warning.hidden = false;
    }

    function open(state) {
      if (state) buildPalette();
      panel.hidden = !state;
      toggle.setAttribute("aria-expanded", state ? "true" : "false");
      toggle.textContent = state ? t("close", "Do not enter the tiles") : t("open", "Enter the tiles");
      $("tp-toggle-note").textContent = state
        ? t("saved_note", "the tiles are saved with the hand")
        : t("optional_note", "optional: the fans are worked out for you");
    }

    toggle.addEventListener("click", function () {
      open(panel.hidden);
      changed(true);
    });
    $("tp-text-add").addEventListener("click", addTyped);
    $("tp-text").addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault(); // not the hand form's submit
        addTyped();
      }
    });
    $("tp-clear").addEventListener("click", function () {
      hand = { concealed: [], melds: [], win: null };
      changed(true);
    });
    FLAGS.concat(["seat_wind", "prevalent_wind"]).forEach(function (name) {
      $("tp-" + name).addEventListener("change", function () { changed(true); });
    });
    $("tp-flowers").addEventListener("input", function () { changed(true); });
    if (fanInput) fanInput.addEventListener("input", checkFan);

    function seatWindOfWinner() {
      var winner = winnerSelect ? winnerSelect.value : "";
      return winner ? root.dataset["wind" + winner.toUpperCase()] || "" : "";
    }
    // dataset keys of data-wind-e are "windE".
    if (winnerSelect) {
      winnerSelect.addEventListener("change", function () {
        var wind = seatWindOfWinner();
        if (wind) $("tp-seat_wind").value = wind;
        changed(false);
      });
    }
    form.querySelectorAll("input[name=how]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (radio.value === "self") $("tp-self_drawn").checked = true;
        if (radio.value === "discard") $("tp-self_drawn").checked = false;
        changed(false);
      });
    });

    // Defaults from the page: the prevalent wind of the next hand, the winner's seat wind, self-drawn.
    if (root.dataset.prevalent) $("tp-prevalent_wind").value = root.dataset.prevalent;
    if (seatWindOfWinner()) $("tp-seat_wind").value = seatWindOfWinner();
    var how = form.querySelector("input[name=how]:checked");
    $("tp-self_drawn").checked = !!how && how.value === "self";

    // A form sent back with errors keeps its tiles: show them again, without touching the typed fan.
    var restored = restore(tilesInput ? tilesInput.value : "");
    open(restored);
    changed(false);

    function restore(raw) {
      if (!raw) return false;
      var data;
      try { data = JSON.parse(raw); } catch (e) { return false; }
      if (!data || typeof data !== "object") return false;
      var known = function (c) { return typeof c === "string" && c.length < 8; };
      hand.concealed = Array.isArray(data.concealed) ? data.concealed.filter(known) : [];
      hand.melds = Array.isArray(data.melds) ? data.melds.filter(function (m) {
        return m && Array.isArray(m.tiles);
      }) : [];
      hand.win = known(data.win_tile) ? data.win_tile : null;
      FLAGS.forEach(function (f) { $("tp-" + f).checked = data[f] === true; });
      if (data.seat_wind) $("tp-seat_wind").value = data.seat_wind;
      if (data.prevalent_wind) $("tp-prevalent_wind").value = data.prevalent_wind;
      if (data.flowers !== undefined) $("tp-flowers").value = data.flowers;
      return true;
    }
  }

  function start() {
    document.querySelectorAll(".tile-picker").forEach(init);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // The next hand's form, swapped in after a save (htmx), brings a new picker.
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.querySelectorAll) elt.querySelectorAll(".tile-picker").forEach(init);
  });
})();
