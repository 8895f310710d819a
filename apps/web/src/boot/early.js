/* global location, document, localStorage, requestAnimationFrame */
// The first script of every page: a classic `defer` script in <head>, a few hundred bytes, that
// runs as soon as it arrives (long before the app's own script, which is 100 times larger) and
// starts what the page will ask for anyway (issue 24: /m/app/{id} on 4G; issue 26: the light page):
//
// 1. zod's jitless flag (zod-jitless.js before): zod, asked to compile its object parsers, would
//    first probe `new Function("")`, which the Content-Security-Policy (script-src 'self', no
//    'unsafe-eval') reports as a violation even though zod catches it. zod reads this object as
//    its global config (zod/v4/core/core.js); `defer` keeps it before the module script.
// 2. The route's own chunks as <link rel=modulepreload>, from the table the build writes into
//    index.html (<script type="application/json" id="shutu-routes">, vite.config.ts earlyBoot):
//    without it a lazy page's chunks are asked for only after the app's script has run.
// 3. The API answers the page needs first, fetched now with the stored session and handed to
//    the app's first request of the same GET (shared/api.ts takeEarly): the signed-in
//    user, the public config, on /newbi/preview/{id} the board and its first data (each chart
//    read alone) and on /m/app/{id} the app, the dashboard its menu opens and its first data. Each answer is taken at most once; one nobody takes costs a
//    request and nothing else.
//
// 4. The route's first words in the shell index.html paints (#boot-shell): a share link says
//    正在打开分享… at once instead of after the app's script (seconds on a slow phone).
//
// Plain ES2017, no imports: it is not bundled. Its paths are checked against @shutu/contracts'
// API by apps/web/src/boot/early.test.ts.
(function () {
  'use strict';
  globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });

  var path = location.pathname;
  /** The status line's look (app/styles.css .boot-status is the same for Splash.tsx). */
  var STATUS_STYLE = 'position:absolute;left:0;right:0;top:calc(50% + 30px);text-align:center;font:400 18px sans-serif;color:#4a5670';
  var token = null;
  try {
    token = localStorage.getItem('shutu.token');
  } catch (e) {
    // Storage refused (private mode): the app asks for itself.
  }
  // Without a session only /login and the link pages open (router.tsx TokenGate): nothing else to preload.
  var opens = token !== null || /^\/(login|share\/|openview\/|fullpowerpoint\/)/.test(path);

  /** 2. The route's chunks (after the API calls: on HTTP/1.1 those small answers would queue behind them; after the first paint, below). */
  function preloadRoute() {
    try {
      var table = document.getElementById('shutu-routes');
      var routes = table ? JSON.parse(table.textContent || '[]') : [];
      var wanted = {};
      for (var i = 0; i < routes.length; i++) {
        if (!opens || !new RegExp(routes[i].path).test(path)) continue;
        routes[i].files.forEach(function (file) {
          if (wanted[file]) return;
          wanted[file] = true;
          var link = document.createElement('link');
          if (/\.css$/.test(file)) {
            link.rel = 'preload';
            link.as = 'style';
          } else {
            link.rel = 'modulepreload';
          }
          link.crossOrigin = '';
          link.href = '/' + file;
          document.head.appendChild(link);
        });
      }
    } catch (e) {
      // A preload is only a hint: the app loads what it needs anyway.
    }
  }

  var early = {};
  /** Each entry is taken once by the app's GET of the same path with the same token. */
  globalThis.__shutuEarly = {
    take: function (url, currentToken) {
      var entry = early[url];
      if (!entry || entry.token !== currentToken) return null;
      delete early[url];
      return entry.response;
    },
  };
  /** Keeps an early request's answer for the app under `key` (an unhandled rejection would be reported; the app's own request reports a failure). */
  function keep(key, useToken, response) {
    response.catch(function () {});
    early[key] = { token: useToken ? token : null, response: response };
    return response;
  }
  function get(url, useToken) {
    var headers = { Accept: 'application/json' };
    if (useToken && token) headers.Authorization = 'Bearer ' + token;
    return keep(url, useToken, fetch(url, { headers: headers }));
  }
  /**
   * The board's first data (chart-data/batch without charts: the server picks what the page draws
   * first), streamed, each chart by its own statement (`grouped: false`, as useBoardBatch asks).
   */
  function firstData(boardId) {
    var headers = { Accept: 'application/x-ndjson', 'Content-Type': 'application/json', Authorization: 'Bearer ' + token };
    var body = JSON.stringify({ boardId: boardId, grouped: false });
    var key = 'POST /api/board/chart-data/batch ' + boardId;
    keep(key, true, fetch('/api/board/chart-data/batch', { method: 'POST', headers: headers, body: body }));
  }
  function json(response) {
    return response.then(function (r) {
      return r.ok ? r.clone().json() : null;
    });
  }

  fetchFirstAnswers();
  showStatus();
  // The chunks after the first paint: hundreds of kB asked for before it would compete with the
  // page's own stylesheet on a slow link, and the shell with its status is what shows first.
  if (typeof requestAnimationFrame === 'function')
    requestAnimationFrame(function () {
      setTimeout(preloadRoute, 0);
    });
  else preloadRoute();

  /**
   * 4. Under the logo, out of the row's flow (the logo stays where app/Splash.tsx draws it), the
   * words the share page's own loading state shows next (features/share/messages.ts opening;
   * early.test.ts keeps them equal). Splash.tsx draws the same line while the app loads.
   */
  function showStatus() {
    var shell = document.getElementById('boot-shell');
    if (!shell || !/^\/share\//.test(path)) return;
    var status = document.createElement('div');
    status.className = 'boot-status';
    status.style.cssText = STATUS_STYLE;
    status.textContent = '正在打开分享…';
    shell.appendChild(status);
  }

  /** 3. The API answers, the one that leads to more (the phone app's) first. */
  function fetchFirstAnswers() {
    var app = token ? /^\/m\/app\/(\d+)\/?$/.exec(path) : null;
    if (app) {
      json(get('/api/apps/mobile/' + app[1], true))
        .then(function (body) {
          var menus = body && body.success !== false && body.data ? body.data.menus || [] : [];
          var chosen = Number(new URLSearchParams(location.search).get('menu')) || null;
          var board = menuToOpen(menus, chosen);
          if (!board) return;
          get('/api/board/boards/' + board.visualId, true);
          firstData(board.visualId);
        })
        .catch(function () {});
    }
    // Pages that sign in with a token of their own, or none: only the public config.
    get('/api/system/config', true);
    if (!token || /^\/(login|share\/|openview\/)/.test(path)) return;
    get('/api/auth/info', true);
    // The board preview (issue 26): its definition and its first data now, not after the page's chunk has run.
    var preview = /^\/newbi\/preview\/(\d+)\/?$/.exec(path);
    if (preview) {
      get('/api/board/boards/' + preview[1], true);
      firstData(Number(preview[1]));
    }
  }

  /** features/mobile/reflow.ts menuToOpen: the menu ?menu= names, else the first with a dashboard. */
  function menuToOpen(menus, menuId) {
    var all = [];
    menus.forEach(function (m) {
      all.push(m);
      (m.children || []).forEach(function (c) {
        all.push(c);
      });
    });
    for (var j = 0; j < all.length; j++) if (menuId !== null && all[j].menuId === menuId && all[j].visualId !== null) return all[j];
    for (var k = 0; k < menus.length; k++) {
      var children = menus[k].children || [];
      if (children.length > 0) {
        for (var c = 0; c < children.length; c++) if (children[c].visualId !== null) return children[c];
      } else if (menus[k].visualId !== null) return menus[k];
    }
    return null;
  }
})();
