// Runs before the app's modules (a classic script in <head>): zod, asked to compile its object
// parsers, would first probe `new Function("")`, which the Content-Security-Policy (script-src
// 'self', no 'unsafe-eval') reports as a violation even though zod catches it. jitless skips the
// probe and the compiled parsers; zod reads this object as its global config (zod/v4/core/core.js).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
