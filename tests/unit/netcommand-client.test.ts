import { describe, expect, it } from "vitest";
import { createApiClient } from "~/lib/api-client";
import { MESSAGES } from "~/lib/messages";
import { isJobRunning, NETCOMMAND_REQUEST_FAILED, netcommandHeading, runNetcommand, type NetcommandJob } from "~/lib/netcommand-client";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
type Answer = Response | Error;

/** A fake server: answers in order, recording the calls; an Error answer is a network failure. */
function fakeServer(answers: Answer[]) {
  const calls: { url: string; method: string; body: unknown; headers: Record<string, string> }[] = [];
  const client = createApiClient({
    fetch: async (url, init) => {
      calls.push({
        url,
        method: init.method ?? "GET",
        body: init.body ? JSON.parse(String(init.body)) : null,
        headers: init.headers as Record<string, string>,
      });
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      if (next instanceof Error) throw next;
      return next;
    },
    // The client's retries of the polling GET wait no real time here.
    sleep: async () => {},
  });
  return { client, calls };
}

const noSleep = async () => {};
const JOB = "0b5c3f1e-8a4e-4c1e-9a55-2b1d6c1f0a11";

describe("network command client", () => {
  it("creates the job with the contract's body, polls until SUCCESS and reports every state", async () => {
    const { client, calls } = fakeServer([
      json(200, [{ jobID: JOB }]),
      json(200, { state: "PENDING", result: "" }),
      json(200, { state: "STARTED", result: "" }),
      json(200, { state: "SUCCESS", result: "4 packets transmitted, 4 received, 0% packet loss" }),
    ]);
    const seen: NetcommandJob[] = [];
    const sleeps: number[] = [];
    const outcome = await runNetcommand(
      client,
      { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
      {
        onUpdate: (job) => seen.push(job),
        sleep: async (ms) => void sleeps.push(ms),
      },
    );
    expect(outcome).toEqual({
      status: "Completed",
      job: { state: "SUCCESS", result: "4 packets transmitted, 4 received, 0% packet loss" },
    });
    expect(seen.map((j) => j.state)).toEqual(["PENDING", "PENDING", "STARTED", "SUCCESS"]);
    expect(calls[0]).toMatchObject({
      url: "/api/netcommand/",
      method: "POST",
      body: { networkElement: "fra1", protocol: null, queryType: "PingQuery", sourceAddress: null, targetAddress: "192.0.2.1" },
    });
    expect(calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual(Array(3).fill(`GET /api/netcommand/${JOB}/`));
    expect(sleeps).toEqual([1000, 1000, 1000]);
  });

  it("shows STARTED for a traceroute before the request is sent, and ends on FAILURE with the server's text", async () => {
    const { client } = fakeServer([
      json(200, [{ jobID: JOB }]),
      json(200, { state: "RETRY", result: "Could not connect" }),
      json(200, { state: "FAILURE", result: "Could not connect to the router" }),
    ]);
    const seen: string[] = [];
    const outcome = await runNetcommand(
      client,
      { networkElement: "fra1", queryType: "TracerouteQuery", targetAddress: "192.0.2.1" },
      { onUpdate: (j) => seen.push(j.state), sleep: noSleep },
    );
    expect(seen).toEqual(["STARTED", "RETRY", "FAILURE"]);
    expect(outcome).toEqual({ status: "Completed", job: { state: "FAILURE", result: "Could not connect to the router" } });
  });

  // The polling GET is retried by the client (3 more attempts) before its failure counts.
  it.each<[string, () => Answer, number]>([
    ["a network error", () => new TypeError("Failed to fetch"), 4],
    ["a server error", () => json(500, { detail: "The application server has encountered an error." }), 4],
    ["a vanished job", () => json(404, { detail: "Job not found." }), 1],
    ["an unreadable answer", () => new Response("<html>proxy error</html>", { status: 200 }), 1],
  ])("records FAILURE with 'Request failed' after %s while polling", async (_name, failure, attempts) => {
    const { client, calls } = fakeServer([
      json(200, [{ jobID: JOB }]),
      json(200, { state: "STARTED", result: "" }),
      ...Array.from({ length: attempts }, failure),
      json(200, { state: "SUCCESS", result: "not reached" }),
    ]);
    const seen: NetcommandJob[] = [];
    const outcome = await runNetcommand(
      client,
      { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
      { onUpdate: (j) => seen.push(j), sleep: noSleep },
    );
    expect(outcome).toEqual({ status: "Completed", job: { state: "FAILURE", result: NETCOMMAND_REQUEST_FAILED } });
    expect(seen.at(-1)).toEqual({ state: "FAILURE", result: "Request failed" });
    expect(calls).toHaveLength(2 + attempts);
  });

  it("ends as Failed with the server's reason when the job cannot be created, without polling", async () => {
    const { client, calls } = fakeServer([
      json(400, { detail: "Invalid IP address", errors: [{ field: "targetAddress", message: "Invalid IP address" }] }),
    ]);
    expect(
      await runNetcommand(client, { networkElement: "fra1", queryType: "PingQuery", targetAddress: "nope" }, { sleep: noSleep }),
    ).toEqual({
      status: "Failed",
      kind: "user",
      detail: "Invalid IP address",
      httpStatus: 400,
    });
    expect(calls).toHaveLength(1);
    const limited = fakeServer([
      json(429, { detail: "Too many network commands: at most 20 in 10 minutes. Please try again in 30 seconds." }),
    ]);
    expect(
      await runNetcommand(
        limited.client,
        { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
        { sleep: noSleep },
      ),
    ).toMatchObject({ status: "Failed", httpStatus: 429 });
    const offline = fakeServer([new TypeError("Failed to fetch")]);
    expect(
      await runNetcommand(
        offline.client,
        { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
        { sleep: noSleep },
      ),
    ).toEqual({
      status: "Failed",
      kind: "network",
      detail: MESSAGES.networkInterrupted,
      httpStatus: null,
    });
    // Creating a job is a mutation: a lost answer is not sent again.
    expect(offline.calls).toHaveLength(1);
    const broken = fakeServer([json(500, { detail: "Traceback: KeyError 'vp'" })]);
    expect(
      await runNetcommand(
        broken.client,
        { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
        { sleep: noSleep },
      ),
    ).toEqual({ status: "Failed", kind: "internal", detail: MESSAGES.serverError, httpStatus: 500 });
    expect(broken.calls).toHaveLength(1);
  });

  it("gives up with 'Request failed' when the job outlives the time-out, and stops when aborted", async () => {
    let clock = 0;
    const { client } = fakeServer([
      json(200, [{ jobID: JOB }]),
      ...Array.from({ length: 10 }, () => json(200, { state: "PENDING", result: "" })),
    ]);
    const outcome = await runNetcommand(
      client,
      { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
      {
        maxWaitMs: 3_000,
        now: () => clock,
        sleep: async (ms) => void (clock += ms),
      },
    );
    expect(outcome).toEqual({ status: "Completed", job: { state: "FAILURE", result: NETCOMMAND_REQUEST_FAILED } });

    const controller = new AbortController();
    const aborting = fakeServer([json(200, [{ jobID: JOB }]), json(200, { state: "PENDING", result: "" })]);
    const aborted = await runNetcommand(
      aborting.client,
      { networkElement: "fra1", queryType: "PingQuery", targetAddress: "192.0.2.1" },
      {
        sleep: async () => controller.abort(),
        signal: controller.signal,
      },
    );
    expect(aborted).toEqual({ status: "Aborted" });
    expect(aborting.calls).toHaveLength(1);
  });

  it("names the running states and writes the result heading", () => {
    expect(["PENDING", "STARTED", "RETRY"].every(isJobRunning)).toBe(true);
    expect(["SUCCESS", "FAILURE"].some(isJobRunning)).toBe(false);
    expect(netcommandHeading("fra1 Frankfurt, Germany", "192.0.2.1", "198.51.100.7")).toBe(
      "fra1 Frankfurt, Germany (192.0.2.1) to 198.51.100.7",
    );
  });
});
