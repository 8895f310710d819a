'use strict';
// autocannon's setupRequest in a worker thread (bench/track/run.ts --workers): the batches come
// from the JSON file the run wrote (TRACK_BENCH_BODIES), cycled in turn.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon's workers require() this file: it stays CommonJS
const fs = require('node:fs');

const bodies = JSON.parse(fs.readFileSync(process.env.TRACK_BENCH_BODIES, 'utf8'));
let next = 0;

module.exports = (req) => ({ ...req, body: bodies[next++ % bodies.length] });
