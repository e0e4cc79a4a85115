// Scorekeeper on the phone: an offline banner, and games and events entered without a connection
// kept on this phone and sent when it returns. Every form carries its idempotency key, so a
// resend records nothing twice.
(() => {
  "use strict";
  const QUEUE = "scorekeeper-queue";
  const offline = document.getElementById("offline");
  const queued = document.getElementById("queued");

  const load = () => JSON.parse(localStorage.getItem(QUEUE) || "[]");
  const save = (queue) => localStorage.setItem(QUEUE, JSON.stringify(queue));

  function show() {
    if (offline) offline.hidden = navigator.onLine;
    const waiting = load().length;
    if (queued) {
      queued.hidden = waiting === 0;
      queued.textContent = queued.dataset.template.replace("{n}", String(waiting));
    }
  }

  // Keep a write made without a connection: a form's POST that carries an idempotency key.
  function keep(form, submitter, url) {
    if (form.method.toLowerCase() !== "post" || !form.querySelector("[name=idempotency_key]")) {
      return false;
    }
    const body = new URLSearchParams(new FormData(form, submitter)).toString();
    const queue = load();
    queue.push({ url, body, at: Date.now() });
    save(queue);
    show();
    return true;
  }

  document.addEventListener("submit", (event) => {
    const submitter = event.submitter;
    if (navigator.onLine || event.defaultPrevented) return;
    if (submitter && submitter.hasAttribute("formaction")) return; // a preview: nothing to keep
    if (keep(event.target, submitter, event.target.action)) event.preventDefault();
  });

  // A button that saves through htmx (the end of a game): the same, in place of its request.
  document.addEventListener("htmx:confirm", (event) => {
    const button = event.detail.elt;
    if (navigator.onLine || button.tagName !== "BUTTON" || !button.form) return;
    const url = new URL(button.getAttribute("hx-post"), location.href).href;
    if (keep(button.form, button, url)) event.preventDefault();
  });

  async function send() {
    const queue = load();
    if (!navigator.onLine || queue.length === 0) return;
    let refused = 0;
    let landing = null; // where the last save would have taken this page
    while (queue.length) {
      let response;
      try {
        response = await fetch(queue[0].url, {
          method: "POST",
          body: queue[0].body,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          credentials: "same-origin",
        });
      } catch {
        return; // still no connection: keep everything for the next try
      }
      if (!response.ok) refused += 1; // the server said why; the entry is shown again below
      else if (response.redirected) landing = response.url;
      queue.shift();
      save(queue);
    }
    if (refused && queued) sessionStorage.setItem("scorekeeper-refused", String(refused));
    if (landing) location.assign(landing);
    else location.reload();
  }

  const refused = sessionStorage.getItem("scorekeeper-refused");
  if (refused && queued) {
    sessionStorage.removeItem("scorekeeper-refused");
    const note = document.getElementById("refused");
    if (note) {
      note.hidden = false;
      note.textContent = note.dataset.template.replace("{n}", refused);
    }
  }
  window.addEventListener("online", () => {
    show();
    send();
  });
  window.addEventListener("offline", show);
  show();
  send();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");
})();
