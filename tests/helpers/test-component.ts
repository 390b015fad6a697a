// An ingest component for the tests of the component kernel: a TCP listener on <NAME>_LISTEN that greets each
// connection, counts it in the metrics, and records its start and stop, as a flow collector would listen on UDP.
import net from "node:net";
import type { IngestComponent, ListenAddress } from "~/server/components/contract.server";

export type TestComponent = {
  component: IngestComponent<{ listen: ListenAddress }>;
  /** "started" and "stopped", in the order they happened. */
  events: string[];
  /** The port it listens on (the system's pick for port 0). */
  port(): number;
};

export const GREETING = "hello from the test component\n";

export function testComponent(name = "test-listener", options: { stopDelayMs?: number } = {}): TestComponent {
  let server: net.Server | null = null;
  const events: string[] = [];
  const port = () => {
    const address = server?.address();
    return typeof address === "object" && address ? address.port : 0;
  };
  const component: IngestComponent<{ listen: ListenAddress }> = {
    name,
    configure(env) {
      const listen = env.listen();
      return listen ? { listen } : null;
    },
    async start(_services, { settings, metrics }) {
      const listening = net.createServer((socket) => {
        metrics.increment("connections");
        socket.end(GREETING);
      });
      await new Promise<void>((resolve, reject) => {
        listening.once("error", reject);
        listening.listen(settings.listen.port, settings.listen.host, () => resolve());
      });
      server = listening;
      events.push("started");
    },
    async stop() {
      const closing = server;
      if (options.stopDelayMs) await new Promise((resolve) => setTimeout(resolve, options.stopDelayMs));
      await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
      server = null;
      events.push("stopped");
    },
    health: () => (server?.listening ? { ok: true, detail: `listening on port ${port()}` } : { ok: false, detail: "not listening" }),
  };
  return { component, events, port };
}

/** What a client connecting to the component reads. */
export function greetingAt(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}
