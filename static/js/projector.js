/* The projector pages and rotates its slides to fit whatever screen the hall has (no inline script:
   the Content-Security-Policy allows none). Each .slide is one view, or several when it holds a
   table[data-pages]: its rows are split into pages that fit under the slide's heading and above the
   footer, measured in this browser at this size. Views follow each other every data-seconds seconds
   (the arrow keys and the space bar move too). htmx asks for the slides every second (304 when nothing
   changed: not swapped, site.js); the page being shown stays (or the nearest one). body[data-view] says what is up ("standings 2/5"). */
(function () {
  "use strict";

  var container, views = [], index = 0, timer = null;

  function slides() {
    return Array.prototype.slice.call(container.querySelectorAll(".slide"));
  }

  function showSlide(slide) {
    slides().forEach(function (other) { other.hidden = other !== slide; });
  }

  function layout() {
    var footer = document.querySelector(".projector-foot");
    var reserve = (footer ? footer.getBoundingClientRect().height : 0) + 12;
    views = [];
    slides().forEach(function (slide) {
      var key = slide.getAttribute("data-slide");
      var title = slide.getAttribute("data-title") || key;
      var table = slide.querySelector("table[data-pages]");
      var rows = table && table.tBodies.length ? Array.prototype.slice.call(table.tBodies[0].rows) : [];
      if (!rows.length) {
        views.push({ slide: slide, key: key, title: title, page: 1, pages: 1, rows: null });
        return;
      }
      showSlide(slide);
      rows.forEach(function (row) { row.hidden = false; });
      window.scrollTo(0, 0);
      var first = rows[0].getBoundingClientRect();
      var last = rows[rows.length - 1].getBoundingClientRect();
      var rowHeight = Math.max(first.height, (last.bottom - first.top) / rows.length) + 0.5;
      var room = window.innerHeight - first.top - reserve;
      var perPage = Math.max(1, Math.floor(room / rowHeight));
      var pages = Math.ceil(rows.length / perPage);
      for (var page = 0; page < pages; page++) {
        views.push({
          slide: slide, key: key, title: title, page: page + 1, pages: pages, rows: rows,
          from: page * perPage, to: Math.min(rows.length, (page + 1) * perPage)
        });
      }
    });
  }

  function show(i) {
    if (!views.length) return;
    index = ((i % views.length) + views.length) % views.length;
    var view = views[index];
    showSlide(view.slide);
    if (view.rows) {
      view.rows.forEach(function (row, n) { row.hidden = n < view.from || n >= view.to; });
    }
    var where = view.pages > 1 ? view.title + " " + view.page + "/" + view.pages : view.title;
    var label = document.getElementById("projector-where");
    if (label) label.textContent = where;
    document.body.setAttribute("data-view", view.key + " " + view.page + "/" + view.pages);
  }

  function relayout() {
    var current = views[index];
    layout();
    var again = 0;
    if (current) {
      views.forEach(function (view, i) {
        if (view.key === current.key && view.page <= current.page) again = i;
      });
    }
    show(again);
  }

  function restart() {
    if (timer) window.clearInterval(timer);
    var seconds = parseInt(container.getAttribute("data-seconds"), 10) || 12;
    timer = window.setInterval(function () { show(index + 1); }, seconds * 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    container = document.getElementById("slides");
    if (!container) return;
    layout();
    show(0);
    restart();
    // A poll when nothing changed is a 304, which the browser turns into its copy: the same slides are
    // not swapped in again (the page shown and the clock's countdown stay as they are).
    var shown = null;
    document.body.addEventListener("htmx:beforeSwap", function (event) {
      if (event.detail.target !== container || !event.detail.xhr) return;
      var body = event.detail.xhr.responseText;
      if (event.detail.xhr.status === 304 || body === shown) {
        event.detail.shouldSwap = false;
        return;
      }
      shown = body;
    });
    document.body.addEventListener("htmx:afterSettle", function (event) {
      if (event.target === container) relayout();
    });
    var resizing = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(resizing);
      resizing = window.setTimeout(relayout, 200);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === " " || event.key === "PageDown") {
        show(index + 1); restart(); event.preventDefault();
      } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
        show(index - 1); restart(); event.preventDefault();
      }
    });
  });
})();
