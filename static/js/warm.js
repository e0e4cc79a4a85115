// Warming: while online, keep a copy of the pages of a game started on this phone, so that a game
// started without a connection still opens its pages; and keep the copy of this page as htmx
// changes it, so that the page opened without a connection is the one this phone last saw. They are made for the key "_", which the
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

  // A save answered in place (or a poll) changes the page without a navigation, and the worker
  // keeps a page only as a navigation brings it: the copy it would show without a connection
  // would be the table as first loaded, with a start for a game long played. After each swap the
  // copy becomes the page as it now is, under the headers it came with (its policy's nonce given
  // back to the scripts, which the browser hides from the page).
  async function keepPage() {
    if (!("caches" in window) || !navigator.serviceWorker || !navigator.serviceWorker.controller) {
      return;
    }
    const pages = await caches.open("pages");
    const kept = await pages.match(location.href, { ignoreVary: true });
    if (!kept) return; // the worker keeps it on the next load
    const headers = new Headers(kept.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    const policy = headers.get("Content-Security-Policy") || "";
    const nonce = (/'nonce-([^']+)'/.exec(policy) || [])[1];
    let page = `<!doctype html>\n${document.documentElement.outerHTML}`;
    if (nonce) page = page.replaceAll(' nonce=""', ` nonce="${nonce}"`);
    await pages.delete(location.href, { ignoreVary: true }); // one copy a page, whatever it varied by
    await pages.put(location.href, new Response(page, { status: kept.status, headers }));
  }
  document.addEventListener("htmx:afterSettle", () => {
    keepPage().catch(() => {}); // not this time: the next swap or load keeps it
  });
  // The first visit: the worker controls the page only once it is ready.
  if ("serviceWorker" in navigator) navigator.serviceWorker.ready.then(() => warm(document.body));
})();
