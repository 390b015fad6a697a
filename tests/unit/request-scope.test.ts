import { describe, expect, it } from "vitest";
import { oncePerRequest, runInRequestScope } from "~/server/request-scope.server";

const request = (cookie?: string) => new Request("http://flowlens.test/faq", { headers: cookie ? { Cookie: cookie } : {} });

/** Two loaders of one request asking in parallel: how often the read ran. */
async function readsOfTwoLoaders(method: string | undefined, cookies: [string?, string?] = ["a=1", "a=1"]): Promise<number> {
  let reads = 0;
  const read = () => oncePerRequest(request(cookies[0]), "thing", async () => ++reads);
  const readOther = () => oncePerRequest(request(cookies[1]), "thing", async () => ++reads);
  const both = () => Promise.all([read(), readOther()]);
  if (method === undefined) await both();
  else await runInRequestScope({}, both, method);
  return reads;
}

describe("oncePerRequest", () => {
  it("shares one read among the loaders of a GET or HEAD request", async () => {
    expect(await readsOfTwoLoaders("GET")).toBe(1);
    expect(await readsOfTwoLoaders("HEAD")).toBe(1);
  });

  it("reads afresh in a request that may run an action, in a scope of unknown method, and outside any scope", async () => {
    expect(await readsOfTwoLoaders("POST")).toBe(2);
    expect(await readsOfTwoLoaders("DELETE")).toBe(2);
    expect(await readsOfTwoLoaders("")).toBe(2);
    expect(await readsOfTwoLoaders(undefined)).toBe(2);
  });

  it("never shares a read between requests of different cookies", async () => {
    expect(await readsOfTwoLoaders("GET", ["a=1", "a=2"])).toBe(2);
    expect(await readsOfTwoLoaders("GET", [undefined, "a=1"])).toBe(2);
  });

  it("keeps each scope's reads to itself", async () => {
    let reads = 0;
    const read = () => oncePerRequest(request("a=1"), "thing", async () => ++reads);
    await runInRequestScope({}, read, "GET");
    await runInRequestScope({}, read, "GET");
    expect(reads).toBe(2);
  });
});
