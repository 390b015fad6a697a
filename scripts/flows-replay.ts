/**
 * npm run flows:replay -- --to HOST:PORT [--rate N/s] [--loop N] FILE.pcap…
 * Sends the UDP payloads of libpcap/pcapng captures, in file order, to a flow collector. Needs no
 * store: it only reads files and sends datagrams. Per file a line to stderr, the summary to stdout;
 * exit code 2 for bad arguments, 1 for an unreadable file or a failed send.
 */
import path from "node:path";
import { CaptureFileError, readCaptureFile } from "~/features/collector/pcap/capture-file-reader.server";
import { parseReplayTarget, replayDatagrams, type ReplayTarget } from "~/features/collector/pcap/replay.server";

const USAGE = "usage: npm run flows:replay -- --to HOST:PORT [--rate N/s] [--loop N] FILE.pcap…";

class UsageError extends Error {}

type Arguments = { target: ReplayTarget; ratePerSecond?: number; passes: number; files: string[] };

function parseArguments(argv: string[]): Arguments {
  const options: Record<string, string> = {};
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") throw new UsageError(USAGE);
    const option = /^--(to|rate|loop)(?:=(.*))?$/.exec(arg);
    if (option) {
      const value = option[2] ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${option[1]} needs a value; ${USAGE}`);
      options[option[1]] = value;
    } else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}; ${USAGE}`);
    else files.push(arg);
  }
  if (options.to === undefined) throw new UsageError(`--to is required; ${USAGE}`);
  const target = parseReplayTarget(options.to);
  if (!target) throw new UsageError(`--to ${options.to}: expected HOST:PORT or [IPv6]:PORT; ${USAGE}`);
  const rate = options.rate === undefined ? undefined : Number(/^(.*?)(?:\/s)?$/.exec(options.rate)?.[1]);
  if (rate !== undefined && !(rate > 0 && Number.isFinite(rate)))
    throw new UsageError(`--rate ${options.rate}: expected datagrams per second, e.g. 500/s; ${USAGE}`);
  const passes = options.loop === undefined ? 1 : Number(options.loop);
  if (!Number.isInteger(passes) || passes < 1)
    throw new UsageError(`--loop ${options.loop}: expected a whole number of passes, at least 1; ${USAGE}`);
  if (!files.length) throw new UsageError(`no capture file given; ${USAGE}`);
  return { target, ratePerSecond: rate, passes, files };
}

const number = (n: number) => n.toLocaleString("en-US");

/** Every file is read before the first datagram leaves: a bad file should not leave a collector with half a replay. */
function readPayloads(files: string[]): Uint8Array[] {
  return files.flatMap((file) => {
    const capture = readCaptureFile(file);
    const skipped = Object.entries(capture.skipped).map(([reason, count]) => `${number(count)} ${reason}`);
    const notes = [
      skipped.length ? `skipped: ${skipped.join(", ")}` : "",
      capture.truncated ? `cut short at byte ${capture.truncated.offset}: ${capture.truncated.detail}` : "",
    ];
    console.error(
      `${path.basename(file)}: ${number(capture.packets)} packets, ${number(capture.datagrams.length)} UDP datagrams` +
        notes
          .filter(Boolean)
          .map((note) => `; ${note}`)
          .join(""),
    );
    return capture.datagrams.map((d) => d.payload);
  });
}

async function main(): Promise<void> {
  const { target, ratePerSecond, passes, files } = parseArguments(process.argv.slice(2));
  const payloads = readPayloads(files);
  const summary = await replayDatagrams(payloads, target, { ratePerSecond, passes });
  const to = target.family === 6 ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
  console.log(`sent ${number(summary.datagrams)} datagrams, ${number(summary.bytes)} bytes to ${to} in ${summary.seconds.toFixed(2)} s`);
}

main().then(
  () => process.exit(0),
  (error) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error instanceof CaptureFileError ? error.message : error);
    process.exit(1);
  },
);
