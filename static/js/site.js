/* Behaviour the pages share, without inline script (the Content-Security-Policy allows none):
   - a form with data-confirm="question" asks before it is sent (destructive or final actions);
   - an input with data-filter="#table-id" hides the table's rows whose data-name lacks the typed text
     (case and accents ignored);
   - a form with data-post-again, posted with htmx, is posted again without it when its answer is an error;
   - in a form with data-shown-by="field", an element with data-shown-for="a b" is shown only while that
     select's value is one of a, b (the penalty form: points only for "other"); without script, all show;
   - an element with data-go-after="seconds" and data-go-to="url" opens that url after so many seconds (the
     check-in kiosk clears itself for the next player);
   - a table that scrolls sideways (a wide one on a phone) with nothing inside to tab to becomes a tab stop,
     so that a keyboard can scroll it (WCAG 2.1.1; tests/browser/test_accessibility.py). */
(function () {
  "use strict";

  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  }, true);

  function applyFilter(input) {
    var selector = input && input.getAttribute && input.getAttribute("data-filter");
    if (!selector) return;
    var wanted = fold(input.value);
    document.querySelectorAll(selector + " tbody tr").forEach(function (row) {
      row.hidden = !fold(row.dataset.name).includes(wanted);
    });
  }

  document.addEventListener("input", function (event) {
    applyFilter(event.target);
  });

  function polled(target) {
    return target && target.getAttribute && /every /.test(target.getAttribute("hx-trigger") || "");
  }

  // A poll that brings what the page already shows is not swapped in (the browser turns a 304 into
  // its cached copy, so htmx sees the same body again); one that brings news keeps the reader's open
  // <details> (a table's hands) open.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!polled(target) || !event.detail.xhr) return;
    var body = event.detail.xhr.responseText;
    if (target.lastPoll === body) {
      event.detail.shouldSwap = false;
      return;
    }
    target.lastPoll = body;
    target.openDetails = Array.prototype.map.call(target.querySelectorAll("details[open][id]"), function (d) {
      return d.id;
    });
  });

  // A polled table (htmx) comes back whole: filter its new rows as the box says.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    (target && target.openDetails || []).forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
    document.querySelectorAll("input[data-filter]").forEach(applyFilter);
  });

  // A form posted with htmx (data-post-again: the referee's hand form) whose answer is not one to swap in
  // (a 503 while the database restarts, a 500, the connection lost) is posted again the ordinary way, so
  // the browser shows the server's own answer, as without script ("not saved, try again": Back keeps
  // what was typed). A refused hand is a 422, swapped in with its reasons (base.html's htmx-config).
  function postAgain(event) {
    var form = event.detail && event.detail.elt;
    if (!form || !form.matches || !form.matches("form[data-post-again]")) return;
    // Not sent at all (no connection): the hand is kept on the phone instead (static/js/offline-entry.js).
    if (event.type === "htmx:sendError" && window.offlineEntry && window.offlineEntry.keep(form)) return;
    form.submit();
  }
  // While it is sent, what the page said after the previous save is taken away: the answer says anew.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (!form || !form.matches || !form.matches("form[data-post-again]")) return;
    var said = document.getElementById("messages");
    if (said) said.innerHTML = "";
    // The previous save is said inside the form too (where the referee lands on a phone).
    form.querySelectorAll(":scope > ul.messages").forEach(function (list) { list.remove(); });
  });
  document.addEventListener("htmx:responseError", postAgain);
  document.addEventListener("htmx:sendError", postAgain);

  function applyShown(form) {
    var name = form.getAttribute("data-shown-by");
    var select = name && form.elements[name];
    if (!select) return;
    form.querySelectorAll("[data-shown-for]").forEach(function (element) {
      element.hidden = !element.getAttribute("data-shown-for").split(" ").includes(select.value);
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target && event.target.form;
    if (form && form.hasAttribute("data-shown-by")) applyShown(form);
  });
  var TAB_STOPS = "a[href], button, input, select, textarea, [tabindex]:not([data-scroll-stop])";
  function scrollStops() {
    document.querySelectorAll("main table, main .table-wrap").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(box).overflowX);
      if (scrolls && !box.querySelector(TAB_STOPS)) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("data-scroll-stop", "");
      } else if (!scrolls && box.hasAttribute("data-scroll-stop")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-scroll-stop");
      }
    });
  }
  document.addEventListener("htmx:afterSettle", scrollStops);
  window.addEventListener("resize", scrollStops);

  document.addEventListener("DOMContentLoaded", function () {
    scrollStops();
    document.querySelectorAll("form[data-shown-by]").forEach(applyShown);
    var go = document.querySelector("[data-go-after][data-go-to]");
    if (go) {
      window.setTimeout(function () {
        window.location.assign(go.getAttribute("data-go-to"));
      }, 1000 * Number(go.getAttribute("data-go-after")));
    }
  });
})();
