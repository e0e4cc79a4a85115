// Scorekeeper's service worker: the app shell from the cache, pages from the network with the
// last copy kept for when there is none (or the server answers 5xx). A write sent while online
// goes to the network; one that gets no answer is kept for the page's queue (below).
const VERSION = "{{ version }}";
const SHELL_CACHE = `shell-${VERSION}`;
const PAGES_CACHE = "pages";
const SHELL = [{% for url in shell %}"{{ url|escapejs }}", {% endfor %}];
const OFFLINE = "{{ offline|escapejs }}";
const STATIC = "{{ static_prefix|escapejs }}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll([...SHELL, OFFLINE])));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) =>
      Promise.all(keys.filter((k) => k.startsWith("shell-") && k !== SHELL_CACHE).map((k) => caches.delete(k))),
    ),
  );
  self.clients.claim();
});

// A game started on this phone without a connection has no id: its pages are named by the key
// the phone made (/s/<night>/games/key/<key>/…). The page keeps a copy of each made for the key
// "_" (static/js/warm.js); shown for another key, its addresses are that key's.
const STARTED_HERE = /^(\/s\/\d+\/games\/key\/)([\w-]+)(\/.*)$/;

async function startedHere(url) {
  const match = url.pathname.match(STARTED_HERE);
  if (!match) return null;
  const [, head, key, tail] = match;
  const copy = await caches.match(head + "_" + tail, { ignoreVary: true });
  if (!copy) return null;
  const page = (await copy.text()).replaceAll(`${head}_/`, `${head}${key}/`);
  return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// A form's write sent the plain way (not by the page's queue) that gets no answer, or a 5xx: its
// key and fields are kept for the page to queue (static/js/queue.js, adopt), and the phone goes
// back to the page it came from. Nothing typed is lost to a dropped connection.
const KEPT = "kept";

async function sendOrKeep(request) {
  const copy = request.clone();
  try {
    const response = await fetch(request);
    if (response.status < 500 && response.status !== 429) return response;
    return keep(copy, response);
  } catch {
    return keep(copy, Response.error());
  }
}

async function keep(request, answer) {
  const body = await request.text();
  const key = new URLSearchParams(body).get("idempotency_key");
  if (!key) return answer; // not a write the queue can send again safely
  const marker = JSON.stringify({ url: request.url, body, key });
  await (await caches.open(KEPT)).put(`/kept/${encodeURIComponent(key)}`, new Response(marker));
  return Response.redirect(request.referrer || "/", 303);
}

// A page: from the network, a copy kept; with no answer or a 5xx, the copy (or, for a game
// started on this phone, the copy made for any such game; else the offline page).
async function navigate(request, url) {
  let response = null;
  try {
    response = await fetch(request);
  } catch {
    response = null;
  }
  if (response && response.status < 500) {
    if (response.ok) {
      const copy = response.clone();
      caches.open(PAGES_CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }
  return (
    (await caches.match(request, { ignoreVary: true })) || // kept under another language, say
    (await startedHere(url)) ||
    response ||
    caches.match(OFFLINE)
  );
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && request.mode === "navigate" && url.origin === self.location.origin) {
    event.respondWith(sendOrKeep(request));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.headers.get("HX-Request")) return; // live polls: the network or nothing
  if (url.pathname.startsWith("/push/")) return; // a table's stream: left to the page (live.js)
  if (request.mode === "navigate") {
    event.respondWith(navigate(request, url));
    return;
  }
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            const copy = response.clone();
            caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
            return response;
          }),
      ),
    );
  }
});
