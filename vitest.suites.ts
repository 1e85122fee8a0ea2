/**
 * The suites that start a server, a browser, other Node processes or an npm install, in test/e2e/
 * beside the few packages only they use (test/e2e/package.json): they run in `npm run test:e2e`
 * (vitest.e2e.config.ts), and `npm test` (vitest.config.ts) leaves them out.
 */
export const endToEndSuites = [
  // npm pack and npm install into an empty project, from the tarball and from the git repository.
  "test/e2e/install.test.ts",
  // Several forked Node processes over one redis-server, killed and restarted.
  "test/e2e/deployment.test.ts",
  // The deployment guide's route, a fresh Node process per request over one redis-server.
  "test/e2e/deployment-guide.test.ts",
  // redis-server, with node-redis, ioredis and Upstash's REST client.
  "test/e2e/redis-store.test.ts",
  "test/e2e/redis-clients.test.ts",
  // Redis stopped and started again under two processes with the deployment guide's client.
  "test/e2e/store-outage.test.ts",
  // Headless Chromium.
  "test/e2e/inspect-html.test.ts",
  // Each integration's recipe as the docs print it, over several crossings; Mastra's in the Node 22 of runtimes/.
  "test/e2e/recipes-end-to-end.test.ts",
];
