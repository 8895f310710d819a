// A local S3-protocol server (s3rver, objects as files) for `npm run cluster -- --s3` and the e2e
// run against the cluster: prints its file-storage settings as one JSON line, then serves until
// it gets SIGTERM/SIGINT. Not for production: there, point SHUTU_S3_* at a real bucket.
import { startTestS3Server } from '../../apps/server/src/platform/files/s3-test-server.ts';

const server = await startTestS3Server({ prefix: 'cluster/' });
process.stdout.write(`${JSON.stringify(server.config)}\n`);
const stop = () => void server.stop().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
