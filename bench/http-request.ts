import http from "node:http";

export type Timing = { status: number; ttfb: number; total: number; bytes: number; headers: http.IncomingHttpHeaders; body: string };

export type RequestOptions = { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number; keepBody?: boolean };

/** One request: time to the response headers ('response' event) and to the end of the body. */
export function timedRequest(agent: http.Agent, port: number, pathname: string, options: RequestOptions = {}): Promise<Timing> {
  const { method = "GET", headers = {}, body, timeoutMs = 30_000, keepBody = false } = options;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      { host: "127.0.0.1", port, path: pathname, method, agent, headers: { accept: "text/html,application/json", ...headers } },
      (response) => {
        const ttfb = performance.now() - started;
        let bytes = 0;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (keepBody) chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            ttfb,
            total: performance.now() - started,
            bytes,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`${method} ${pathname}: no answer within ${timeoutMs / 1000} s`)));
    request.on("error", reject);
    request.end(body);
  });
}
