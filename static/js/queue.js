// The offline queue: what is entered without a connection is kept on this phone and sent, in
// order, when it returns, so nothing typed is lost to a dropped connection. This file also shows
// the offline banner, lists the entries waiting and those refused, and registers the service
// worker (templates/app/sw.js), which keeps the pages opened and a plain write left unanswered.
//
// An entry is a form's POST: its address, its fields and its idempotency key. Kept without a
// connection, it gets a key made on the phone (a page the service worker shows from its copy
// repeats the key it was rendered with); kept after a send that failed, it keeps the page's (the
// first copy may have landed). Entries go one at a time, the oldest first, under a lock this
// phone's tabs share:
// - answered (2xx, 3xx): sent, and off the queue;
// - no answer, 5xx or 429: kept, and tried again later;
// - refused (another 4xx): off the queue, listed with the server's reason until dismissed, so it
//   can be entered again.
// A game started without a connection has no id: its start's key names it, and its events and
// end go to /s/<night>/games/key/<key>/… (views/offline.py). Its pages come from copies made for
// the key "_" while online (warm.js; templates/app/sw.js shows them for any key).
(() => {
  "use strict";
  const QUEUE = "scorekeeper-queue";
  const REFUSED = "scorekeeper-refused";
  const SENDING = "scorekeeper-sending";
  const KEPT = "kept"; // the service worker's cache of writes it kept (templates/app/sw.js)
  const TEMPLATE_KEY = "/games/key/_/";
  const RETRY_MS = [2000, 5000, 15000, 30000, 60000];
  const offline = document.getElementById("offline");
  const queued = document.getElementById("queued");
  const refusedList = document.getElementById("refused");

  const read = (name) => JSON.parse(localStorage.getItem(name) || "[]");
  const write = (name, list) => localStorage.setItem(name, JSON.stringify(list));
  const fill = (template, n) => template.replace("{n}", String(n));

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
  }

  // A region built once for every phone that shows it (views/live.py) has its forms' keys empty:
  // each form gets a key of its own here, when it arrives, and keeps it for every send of it.
  htmx.onLoad((content) => {
    for (const field of content.querySelectorAll("input[name=idempotency_key]")) {
      if (!field.value) field.value = newKey();
    }
  });

  // The token of this phone's night as it is now (a page from the service worker's copy may
  // carry an older one): the cookie, else this page's.
  function csrfToken() {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    if (cookie) return cookie.slice("csrftoken=".length);
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch {
      return "";
    }
  }

  function show() {
    if (offline) offline.hidden = navigator.onLine;
    showQueued();
    showRefused();
  }

  const clock = (at) =>
    new Date(at).toLocaleTimeString(document.documentElement.lang, {
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
    });

  // The entries waiting to be sent, each listed: what it is, what was entered, and when, oldest
  // (the next to go) first.
  function showQueued() {
    if (!queued) return;
    const waiting = read(QUEUE);
    queued.hidden = waiting.length === 0;
    const heading = queued.querySelector("h2");
    heading.textContent = fill(heading.dataset.template, waiting.length);
    queued.querySelector("ol").replaceChildren(
      ...waiting.map((entry) => {
        const item = document.createElement("li");
        const what = document.createElement("strong");
        what.textContent = entry.label;
        const when = document.createElement("span");
        when.textContent = ` · ${clock(entry.at)}`;
        item.append(what, when);
        if (entry.entered) {
          const typed = document.createElement("p");
          typed.textContent = entry.entered;
          item.append(typed);
        }
        return item;
      }),
    );
  }

  // The entries the server refused: what each was, what was entered, and why.
  function showRefused() {
    if (!refusedList) return;
    const refused = read(REFUSED);
    refusedList.hidden = refused.length === 0;
    const heading = refusedList.querySelector("h2");
    heading.textContent = fill(heading.dataset.template, refused.length);
    const list = refusedList.querySelector("ul");
    list.replaceChildren(
      ...refused.map((entry) => {
        const item = document.createElement("li");
        const what = document.createElement("strong");
        what.textContent = entry.label;
        const why = document.createElement("p");
        why.textContent = entry.reason;
        const entered = document.createElement("p");
        entered.textContent = entry.entered;
        item.append(what, why, entered);
        return item;
      }),
    );
  }

  // What was entered, in the form's own words: each choice made and each value typed.
  function entered(form, submitter) {
    const parts = [];
    const named = (field) =>
      (field.labels && field.labels[0] ? field.labels[0].textContent : "").trim() ||
      field.getAttribute("aria-label") ||
      (field.closest("tr")?.querySelector("th")?.textContent || "").trim() || // a player's row
      field.name;
    for (const field of form.elements) {
      if (!field.name || field.type === "hidden" || field.disabled || field === submitter) continue;
      if (field.type === "radio" || field.type === "checkbox") {
        // A choice as the form first offered it tells nothing: only what was chosen.
        if (field.checked && !field.defaultChecked) parts.push(named(field));
      } else if (field.tagName === "SELECT") {
        const option = field.selectedOptions[0];
        if (option && option.value && option.value !== "0") {
          parts.push(`${named(field)}: ${option.textContent.trim()}`);
        }
      } else if (field.value.trim() && field.value.trim() !== "0") {
        parts.push(`${named(field)}: ${field.value.trim()}`);
      }
    }
    return parts.join(" · ");
  }

  const keyed = (form) =>
    form.method.toLowerCase() === "post" && form.querySelector("[name=idempotency_key]") !== null;

  // The entry a form's POST makes: where it goes, its fields under `key`, and what it was.
  function entry(form, submitter, url, key) {
    const fields = new FormData(form, submitter);
    fields.delete("csrfmiddlewaretoken"); // sent with the token of the page that sends it
    fields.set("idempotency_key", key);
    const heading = document.querySelector("main h1");
    const label = form.classList.contains("start") && submitter ? submitter : heading;
    const next = form.dataset.offlineNext;
    return {
      url,
      body: new URLSearchParams(fields).toString(),
      key,
      label: label ? label.textContent.trim() : url,
      entered: entered(form, submitter),
      next: next ? next.replace(TEMPLATE_KEY, `/games/key/${key}/`) : null,
      at: Date.now(),
    };
  }

  function queueUp(kept) {
    const queue = read(QUEUE);
    if (!queue.some((waiting) => waiting.key === kept.key)) write(QUEUE, [...queue, kept]);
    show();
  }

  // Keep a form's POST that carries an idempotency key; false if it is not one to keep.
  function keep(form, submitter, url, { freshKey }) {
    if (!keyed(form)) return false;
    const key = freshKey ? newKey() : String(new FormData(form).get("idempotency_key"));
    const kept = entry(form, submitter, url, key);
    queueUp(kept);
    form.dataset.kept = "1"; // a second tap keeps nothing more
    if (kept.next) location.assign(kept.next);
    return true;
  }

  // A form sent the plain way while online: noted in this tab, so that if it gets no answer (or
  // a 5xx), the service worker's note of it (templates/app/sw.js) finds it whole.
  function note(form, submitter) {
    const key = String(new FormData(form).get("idempotency_key"));
    sessionStorage.setItem(SENDING, JSON.stringify(entry(form, submitter, form.action, key)));
  }

  // Take in what the service worker kept of a plain form's write that got no answer.
  async function adopt() {
    const sending = JSON.parse(sessionStorage.getItem(SENDING) || "null");
    sessionStorage.removeItem(SENDING); // landed, or kept below: either way, no longer on its way
    if (!("caches" in window) || !(await caches.has(KEPT))) return;
    const kept = await caches.open(KEPT);
    const requests = await kept.keys();
    if (requests.length === 0) return;
    let next = null;
    for (const request of requests) {
      const marker = await (await kept.match(request)).json();
      if (sending && sending.key === marker.key) {
        queueUp(sending);
        next = sending.next;
      } else {
        queueUp({ ...marker, label: marker.url, entered: "", next: null, at: Date.now() });
      }
      await kept.delete(request);
    }
    later(); // what was adopted goes out with the queue's next try
    if (next) location.assign(next);
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (form.dataset.kept) {
      event.preventDefault(); // a second tap: the first is kept
      return;
    }
    if (event.defaultPrevented || !keyed(form)) return;
    if (submitter && submitter.hasAttribute("formaction")) return; // a preview: nothing to keep
    if (navigator.onLine) {
      note(form, submitter); // sent the plain way; if it gets no answer, the worker keeps it
    } else {
      event.preventDefault();
      keep(form, submitter, form.action, { freshKey: true });
    }
  });

  // A button that saves through htmx (the end of a game, a cost at the table): the same, in
  // place of its request, and after a request that got no answer or a 5xx.
  function htmxSave(button) {
    if (button.tagName !== "BUTTON" || !button.form) return null;
    return new URL(button.getAttribute("hx-post"), location.href).href;
  }
  document.addEventListener("htmx:confirm", (event) => {
    const button = event.detail.elt;
    if (button.form && button.form.dataset.kept) {
      event.preventDefault();
      return;
    }
    const url = htmxSave(button);
    if (navigator.onLine || !url) return;
    if (keep(button.form, button, url, { freshKey: true })) event.preventDefault();
  });
  function unanswered(event) {
    const button = event.detail.elt;
    const url = htmxSave(button);
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (url && (status === 0 || status >= 500 || status === 429)) {
      keep(button.form, button, url, { freshKey: false });
      later();
    }
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:responseError", unanswered);

  // The server's reason for a refusal, from the page it answered with.
  function reason(response, page) {
    const doc = new DOMParser().parseFromString(page, "text/html");
    const texts = [...doc.querySelectorAll("main .messages p, main .error")]
      .map((node) => node.textContent.trim())
      .filter((text, i, all) => text && all.indexOf(text) === i);
    if (texts.length) return texts.join(" ");
    return refusedList.dataset.unknown.replace("{status}", String(response.status));
  }

  let retry = 0;
  let timer = null;

  function later() {
    clearTimeout(timer);
    timer = setTimeout(send, RETRY_MS[Math.min(retry, RETRY_MS.length - 1)]);
    retry += 1;
  }

  let landing = null; // where the last entry sent would have taken this page

  // Send what waits, oldest first; true if anything was sent or refused.
  async function drain() {
    let moved = false;
    for (let queue = read(QUEUE); queue.length; queue = read(QUEUE)) {
      const entry = queue[0];
      const body = new URLSearchParams(entry.body);
      body.delete("csrfmiddlewaretoken"); // the token as it is now goes in the header
      let response;
      try {
        response = await fetch(entry.url, {
          method: "POST",
          body,
          headers: { "X-CSRFToken": csrfToken() },
          credentials: "same-origin",
        });
      } catch {
        later(); // no connection after all
        return moved;
      }
      if (response.status >= 500 || response.status === 429) {
        later(); // the server could not take it now: the same entry, its same key, later
        return moved;
      }
      if (response.redirected) landing = response.url;
      if (response.status >= 400) {
        const refused = read(REFUSED);
        const why = reason(response, await response.text());
        refused.push({ label: entry.label, reason: why, entered: entry.entered });
        write(REFUSED, refused);
      }
      write(QUEUE, read(QUEUE).filter((kept) => kept.key !== entry.key));
      moved = true;
      retry = 0;
    }
    return moved;
  }

  async function send() {
    if (!navigator.onLine || read(QUEUE).length === 0) return;
    const moved = navigator.locks
      ? await navigator.locks.request(QUEUE, { ifAvailable: true }, (lock) => lock && drain())
      : await drain();
    show();
    if (moved && read(QUEUE).length === 0) location.assign(landing || location.href); // as it now is
  }

  if (refusedList) {
    refusedList.querySelector("button").addEventListener("click", () => {
      localStorage.removeItem(REFUSED);
      show();
    });
  }
  window.addEventListener("online", () => {
    retry = 0;
    show();
    send();
  });
  window.addEventListener("offline", show);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    send();
  });
  show();
  adopt().then(send);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");
})();
