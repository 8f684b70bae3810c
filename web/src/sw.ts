// The app on the road: a service worker that keeps the app shell, and the trips a person opened with their
// GPX, so that a trip opens with no network (the page says it is offline).
//
// - The shell (index.html, the hashed assets of this build, config.json) is cached at install; assets are
//   served from the cache first (their names change with their content), the page and config.json from
//   the network first.
// - The API's reads of a trip (the trip, its GPX, its operations, the trip list, the served regions) are
//   network first; each answer is kept, per signed-in user (the token's subject, so that another person
//   on this browser never reads them), and served when the network fails. Writes are never cached.
// - Signing out empties the user's copies (the page posts "signed-out").
declare const __SHELL__: string[]; // the build's files, written by build.mjs
declare const __VERSION__: string;
const sw = self as unknown as ServiceWorkerGlobalScope;

const SHELL = `shell-${__VERSION__}`;
const DATA = "trips";
const API_READS = [/\/trips$/, /\/trips\/[\w-]+$/, /\/trips\/[\w-]+\/gpx$/, /\/trips\/[\w-]+\/ops$/, /\/regions$/];

sw.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(["/", "/config.json", ...__SHELL__]))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("shell-") && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => sw.clients.claim()), // the page that installed it is served from now on
  );
});

sw.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "signed-out") event.waitUntil(caches.delete(DATA));
});

/** The token's subject: whose copy this is (the network checks the token; this only keeps copies apart). */
function subjectOf(request: Request): string | null {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
  try {
    const payload = JSON.parse(atob(token!.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { sub?: string };
    return payload.sub ?? null;
  } catch {
    return null;
  }
}

async function networkFirst(request: Request, cacheName: string, key: string): Promise<Response> {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match("/", { cacheName: SHELL })) ?? Response.error()));
    return;
  }
  if (url.origin === sw.location.origin && url.pathname.startsWith("/assets/")) {
    event.respondWith(caches.match(request, { cacheName: SHELL }).then((kept) => kept ?? fetch(request)));
    return;
  }
  if (url.origin === sw.location.origin && url.pathname === "/config.json") {
    event.respondWith(networkFirst(request, SHELL, "/config.json"));
    return;
  }
  const who = subjectOf(request);
  if (who && API_READS.some((pattern) => pattern.test(url.pathname))) {
    // (a made-up origin per user: the Cache API ignores fragments, and a key only needs to be a URL)
    const key = `https://copies.tripagent.invalid/${encodeURIComponent(who)}/${url.host}${url.pathname}${url.search}`;
    event.respondWith(networkFirst(request, DATA, key));
  }
});
