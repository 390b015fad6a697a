import { describe, expect, it } from "vitest";
import { admissionKey, RequestAdmission, tooManyRequests, tooManyRequestsText } from "~/server/request-admission.server";

const request = (headers: Record<string, string>) => ({ headers: new Headers(headers) });

describe("requests of one user in progress", () => {
  it("are counted per session cookie or API token; anonymous requests are not counted", () => {
    const a = admissionKey(request({ Cookie: "csrftoken=x; flowlens_session=abc.def" }));
    expect(a).toBeTruthy();
    expect(admissionKey(request({ Cookie: "flowlens_session=abc.def" }))).toBe(a);
    expect(admissionKey(request({ Cookie: "flowlens_session=other" }))).not.toBe(a);
    expect(admissionKey(request({ Authorization: "Token t1" }))).toBeTruthy();
    expect(admissionKey(request({ Cookie: "csrftoken=x" }))).toBeNull();
  });

  it("are admitted up to the limit, then refused until one leaves", () => {
    const admission = new RequestAdmission(2);
    expect(admission.enter("u")).toBe(true);
    expect(admission.enter("u")).toBe(true);
    expect(admission.enter("u")).toBe(false);
    expect(admission.enter("v")).toBe(true);
    admission.leave("u");
    expect(admission.enter("u")).toBe(true);
  });

  it("are refused with 429 and Retry-After, as JSON for API clients and as a page for browsers", () => {
    const json = tooManyRequests(request({ Accept: "application/json; version=17" }));
    expect(json.status).toBe(429);
    expect(Number(json.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(json.body)).toMatchObject({ detail: tooManyRequestsText, exception_code: "too_many_requests" });
    const page = tooManyRequests(request({ Accept: "text/html" }));
    expect(page.headers["Content-Type"]).toContain("text/html");
    expect(page.body).toContain("<h1>The server is busy</h1>");
  });
});
