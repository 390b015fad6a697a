/**
 * npm run bmp:replay -- --to HOST:PORT [--per-stream] [--rate N/s] FILE.pcap…
 * Sends the BMP streams of libpcap/pcapng captures (their TCP streams reassembled) to a BMP station:
 * by default every stream of every file, in file order, on ONE connection (the captures of one
 * router split into files make one session), with --per-stream one connection per captured stream.
 * Needs no store. Per file what reassembly found to stderr, the summary to stdout; exit code 2 for
 * bad arguments, 1 for an unreadable file, a capture without BMP messages or a failed connection.
 */
import path from "node:path";
import { CaptureFileError, readTcpCaptureFile } from "~/features/collector/pcap/capture-file-reader.server";
import { parseReplayTarget, type ReplayTarget } from "~/features/collector/pcap/replay.server";
import { bmpStreamsOf, captureReport, type CapturedBmpStream } from "~/features/routing/bmp/capture-streams";
import { BmpReplayError, replayBmpSessions, targetText } from "~/features/routing/bmp/replay.server";

const USAGE = "usage: npm run bmp:replay -- --to HOST:PORT [--per-stream] [--rate N/s] FILE.pcap…";

class UsageError extends Error {}

type Arguments = { target: ReplayTarget; perStream: boolean; messagesPerSecond?: number; files: string[] };

function parseArguments(argv: string[]): Arguments {
  const options: Record<string, string> = {};
  const files: string[] = [];
  let perStream = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") throw new UsageError(USAGE);
    if (arg === "--per-stream") {
      perStream = true;
      continue;
    }
    const option = /^--(to|rate)(?:=(.*))?$/.exec(arg);
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
    throw new UsageError(`--rate ${options.rate}: expected BMP messages per second, e.g. 100/s; ${USAGE}`);
  if (!files.length) throw new UsageError(`no capture file given; ${USAGE}`);
  return { target, perStream, messagesPerSecond: rate, files };
}

const number = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string) => `${number(n)} ${n === 1 ? one : `${one}s`}`;

/** Every file is read before the first byte leaves: a bad file should not leave a station with half a replay. */
function readStreams(files: string[]): CapturedBmpStream[] {
  return files.flatMap((file) => {
    const capture = readTcpCaptureFile(file);
    const streams = bmpStreamsOf(file, capture.streams);
    for (const line of captureReport(path.basename(file), capture, streams)) console.error(line);
    return streams;
  });
}

async function main(): Promise<void> {
  const { target, perStream, messagesPerSecond, files } = parseArguments(process.argv.slice(2));
  const streams = readStreams(files).filter((s) => s.messages > 0);
  if (!streams.length) throw new BmpReplayError("no BMP message in the captures: nothing to send");
  const sessions = perStream ? streams.map((s) => [s.bytes]) : [streams.map((s) => s.bytes)];
  const summary = await replayBmpSessions(sessions, target, { messagesPerSecond });
  console.log(
    `sent ${plural(summary.messages, "BMP message")}, ${plural(summary.bytes, "byte")} of ${plural(streams.length, "stream")} ` +
      `from ${plural(files.length, "file")} on ${plural(summary.connections, "connection")} to ${targetText(target)} ` +
      `in ${summary.seconds.toFixed(2)} s`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error instanceof CaptureFileError || error instanceof BmpReplayError ? error.message : error);
    process.exit(1);
  },
);
