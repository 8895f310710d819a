/**
 * The tracker a website includes with one tag (docs/heatmap.md "Tracker"):
 *
 *   <script src="https://<product>/tracker/shutu-track.js" data-write-key="<key>" defer></script>
 *
 * Every click becomes a clickScreen event (x, y in page px, the page width, the page's url — its
 * canonical link when it has one — and title, the visitor's distinct id, kept in localStorage,
 * and the phone once shutuTrack.identify(phone) was called). Events are sent in batches with
 * navigator.sendBeacon as text/plain JSON (no CORS pre-flight from other sites): when 20 are
 * waiting, 2 s after the first, and when the page is hidden or left. Elements inside
 * [data-shutu-ignore] are not tracked. Plain ES5: it runs on whatever the site's visitors use.
 */
export const TRACKER_SCRIPT = `(function () {
  var script = document.currentScript;
  if (!script || window.shutuTrack) return;
  var writeKey = script.getAttribute('data-write-key') || '';
  var endpoint = new URL('/track/batch', script.src).href;
  var queue = [];
  var timer = null;
  function stored(name, make) {
    try {
      var value = localStorage.getItem(name);
      if (!value && make) { value = make(); localStorage.setItem(name, value); }
      return value;
    } catch (e) { return make ? make() : null; }
  }
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return 'v' + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  var distinctId = stored('shutu_distinct_id', newId);
  function pageUrl() {
    var canonical = document.querySelector('link[rel="canonical"]');
    return canonical && canonical.href ? canonical.href : location.origin + location.pathname;
  }
  function flush() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!queue.length) return;
    var body = JSON.stringify({ writeKey: writeKey, events: queue });
    queue = [];
    var blob = new Blob([body], { type: 'text/plain;charset=UTF-8' });
    if (!(navigator.sendBeacon && navigator.sendBeacon(endpoint, blob))) {
      fetch(endpoint, { method: 'POST', body: blob, keepalive: true, mode: 'no-cors' });
    }
  }
  document.addEventListener('click', function (event) {
    var target = event.target;
    if (target && target.closest && target.closest('[data-shutu-ignore]')) return;
    var width = document.documentElement.clientWidth || window.innerWidth;
    var phone = stored('shutu_phone');
    queue.push({
      event: 'clickScreen',
      x: Math.max(0, Math.min(width, Math.round(event.pageX))),
      y: Math.max(0, Math.round(event.pageY)),
      pageWidth: width,
      url: pageUrl(),
      title: document.title || pageUrl(),
      distinctId: distinctId,
      phone: phone || null
    });
    if (queue.length >= 20) flush();
    else if (!timer) timer = setTimeout(flush, 2000);
  }, true);
  document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'hidden') flush(); });
  window.addEventListener('pagehide', flush);
  window.shutuTrack = {
    identify: function (phone) { try { localStorage.setItem('shutu_phone', String(phone)); } catch (e) {} },
    flush: flush,
    distinctId: function () { return distinctId; }
  };
})();
`;
