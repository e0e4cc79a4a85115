// The table follows every phone. The page names its night's stream (data-push, with the pass
// the page gives) and its [data-live] region the version it shows (data-version): the push
// process tells the night's version when the stream opens and at every change, and a version
// above the one shown has htmx ask for the region (the "scorekeeper:changed" trigger). A hidden
// page closes its stream (phones drop background streams without a word) and opens it again
// when shown, catching up at once; so does a returning connection. The 30 s poll of the
// region's hx-trigger runs only while no stream is open (refused, or dropping again and again).
//
// A fetch is skipped while the page is hidden, and while a form in the region has a field in
// focus or a value changed, so that nothing being entered is wiped; the region is fetched once
// the editing ends. htmx cannot say so itself: its trigger filters are evaluated code, which
// the page's policy forbids.
(() => {
  "use strict";

  let stream = null; // the open EventSource, for the night at `streamPath`
  let streamPath = null;
  let heard = null; // the last version the stream told
  let waiting = false; // a change came while a form was being filled in

  function changed(field) {
    if (field.type === "radio" || field.type === "checkbox") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      return [...field.options].some((option) => option.selected !== option.defaultSelected);
    }
    if (field.type === "hidden" || field.tagName === "BUTTON") return false;
    return "defaultValue" in field && field.value !== field.defaultValue;
  }

  function editing(region) {
    const focused = document.activeElement;
    if (focused && region.contains(focused) && focused.matches("input, select, textarea")) {
      return true;
    }
    return [...region.querySelectorAll("form")].some((form) => [...form.elements].some(changed));
  }

  function region() {
    return document.querySelector("[data-live]");
  }

  function said(state) {
    document.body.dataset.stream = state; // "open" or "closed": what the page holds now
  }

  function catchUp() {
    const live = region();
    // Versions only grow: one below the shown is the stream behind this phone's own save.
    if (live && heard !== null && heard > Number(live.dataset.version)) {
      htmx.trigger(live, "scorekeeper:changed");
    }
  }

  function close() {
    if (stream) stream.close();
    stream = null;
    streamPath = null;
    said("closed");
  }

  function open() {
    const named = document.querySelector("[data-push]");
    if (!named || !region() || document.hidden) return;
    const url = new URL(named.dataset.push, location.href);
    if (named.dataset.pushPort) url.port = named.dataset.pushPort;
    if (stream && streamPath === url.pathname) return; // already held
    close();
    const source = new EventSource(url.href);
    stream = source;
    streamPath = url.pathname;
    source.addEventListener("open", () => said("open"));
    source.addEventListener("message", (event) => {
      heard = Number(event.data);
      catchUp();
    });
    source.addEventListener("error", () => {
      // Dropped: the browser tries again after the stream's retry time, and the slow poll runs
      // meanwhile. Refused (a pass too old): closed for good, the slow poll in its place.
      if (stream !== source) return;
      said("closed");
      if (source.readyState === EventSource.CLOSED) {
        stream = null;
        streamPath = null;
      }
    });
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    const live = event.detail.elt;
    if (!live.matches("[data-live]") || event.detail.requestConfig.verb !== "get") return;
    const polled = !event.detail.requestConfig.triggeringEvent; // htmx's timer gives no event
    if (polled && stream && stream.readyState === EventSource.OPEN) {
      event.preventDefault(); // the stream tells every change: no need to ask
    } else if (document.hidden) {
      event.preventDefault();
    } else if (editing(live)) {
      waiting = true;
      event.preventDefault();
    }
  });

  // Once the editing ends (the field left, the value put back), the change that waited comes.
  const settled = () =>
    setTimeout(() => {
      const live = region();
      if (waiting && live && !document.hidden && !editing(live)) {
        waiting = false;
        htmx.trigger(live, "scorekeeper:changed");
      }
    });
  document.addEventListener("focusout", settled);
  document.addEventListener("change", settled);

  // A region swapped in: the stream held (opened if it was not), and one more fetch if the
  // stream told a newer version while this one was on its way.
  document.addEventListener("htmx:afterSettle", () => {
    open();
    catchUp();
  });
  document.addEventListener("visibilitychange", () => (document.hidden ? close() : open()));
  window.addEventListener("pageshow", open);
  window.addEventListener("online", () => {
    close();
    open();
  });
  window.addEventListener("offline", close);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", open);
  } else {
    open();
  }
})();
