import { z } from "zod";

// Zod probes whether it may compile validators with `new Function`; the Content-Security-Policy
// forbids eval, so in the browser the probe only adds a violation report. There, validate without
// compiling (the server keeps compiling: no policy applies to it). Imported first by root.tsx, so
// it runs before any route module parses anything.
if (typeof document !== "undefined") z.config({ jitless: true });
