// Warming: while online, keep a copy of the pages of a game started on this phone, so that a game
// started without a connection still opens its pages. They are made for the key "_", which the
// service worker shows for any key (templates/app/sw.js); the start panel names them and a
// version (the game's number, who sits where), kept once per table and version. A poll may bring
// the panel in: each piece of the page htmx brings in is looked at.
(() => {
  "use strict";
  const WARMED = "scorekeeper-warmed"; // cleared on signing out (sign-out.js)
  let warming = null; // the version being kept now: asked twice, kept once

  async function warm(content) {
    const selector = "form.start[data-offline-pages]";
    const start = content.matches(selector) ? content : content.querySelector(selector);
    if (!start || !navigator.onLine || !("caches" in window)) return;
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    const version = `${location.pathname} ${start.dataset.offlineVersion}`;
    if (localStorage.getItem(WARMED) === version || warming === version) return;
    warming = version;
    try {
      const pages = await caches.open("pages");
      await pages.addAll(start.dataset.offlinePages.split(" "));
      localStorage.setItem(WARMED, version);
    } catch {
      // not this time: the next page load tries again
    } finally {
      warming = null;
    }
  }

  htmx.onLoad(warm);
  // The first visit: the worker controls the page only once it is ready.
  if ("serviceWorker" in navigator) navigator.serviceWorker.ready.then(() => warm(document.body));
})();
