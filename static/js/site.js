/* Behaviour the pages share, without inline script (the Content-Security-Policy allows none):
   - a form with data-confirm="question" asks before it is sent (destructive or final actions);
   - an input with data-filter="#table-id" hides the table's rows whose data-name lacks the typed text
     (case and accents ignored). */
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

  // A polled table (htmx) comes back whole: filter its new rows as the box says.
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("input[data-filter]").forEach(applyFilter);
  });
})();
