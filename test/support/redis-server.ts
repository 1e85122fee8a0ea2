// A real Redis server for the tests: Debian's `redis-server`, started here on 127.0.0.1 at a free
// port with persistence off, and stopped at the end.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createClient } from "redis";

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** True when `redis-server` is on the PATH. */
export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { encoding: "utf8" }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `redis-server` at a free port, or at `port` (a restart); with `dir`, its data is kept in
 * an append-only file there, so a restart finds it again.
 */
export async function startRedisServer(
  options: { port?: number; dir?: string } = {},
): Promise<RedisServer & { port: number }> {
  const port = options.port ?? (await freePort());
  const persistence =
    options.dir === undefined
      ? ["--appendonly", "no"]
      : ["--appendonly", "yes", "--appendfsync", "always", "--dir", options.dir];
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.ping();
      await client.close();
      break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`redis-server did not start on port ${port}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
