// Signing out: the pages this phone kept go with it (the next person to hold the phone is not
// shown them), but never an entry still waiting to be sent; while any waits, ask first.
(() => {
  "use strict";
  const QUEUE = "scorekeeper-queue"; // the entries waiting (queue.js)
  const WARMED = "scorekeeper-warmed"; // the pages kept for a game started here (warm.js)
  const PAGES = "pages"; // the service worker's copies of pages (templates/app/sw.js)

  async function signOut(form) {
    const waiting = JSON.parse(localStorage.getItem(QUEUE) || "[]").length;
    if (waiting && !window.confirm(form.dataset.waiting.replace("{n}", String(waiting)))) return;
    if ("caches" in window) await caches.delete(PAGES);
    localStorage.removeItem(WARMED);
    form.submit();
  }

  document.addEventListener("submit", (event) => {
    if (!("signOut" in event.target.dataset)) return;
    event.preventDefault();
    signOut(event.target);
  });
})();
