/**
 * npm run -s bmp:decode -- FILE.pcap [FILE.pcap …]
 * Prints the routes that replaying libpcap/pcapng captures of BMP sessions, in the order given, on one
 * session would leave in a station's routing tables: the TCP streams reassembled (capture-streams.ts),
 * the whole BMP messages decoded by one decoder (the session's state — Peer Up capabilities such as
 * ADD-PATH — carries from file to file), applied in order to the in-memory table of replay-table.ts.
 * One JSON object per route on stdout; nothing is stored and no store is opened. What reassembly
 * found per file, every decode error and a summary go to stderr; exit code 2 for bad arguments,
 * 1 for an unreadable file.
 */
import { once } from "node:events";
import path from "node:path";
import { CaptureFileError, readTcpCaptureFile } from "~/features/collector/pcap/capture-file-reader.server";
import { bmpStreamsOf, captureReport } from "~/features/routing/bmp/capture-streams";
import { BmpFramingError } from "~/features/routing/bmp/errors";
import { bmpMessageName } from "~/features/routing/bmp/names";
import { ReplayTable, type ReplayRoute } from "~/features/routing/bmp/replay-table";
import { BmpStreamDecoder } from "~/features/routing/bmp/stream-decoder";
import type { BmpMessage, BmpMessageName } from "~/features/routing/bmp/types";
import { pathColumns } from "~/features/routing/mrt/rib-rows";

const USAGE = "usage: npm run -s bmp:decode -- FILE.pcap [FILE.pcap …]";
const CHUNK_BYTES = 1024 * 1024;
const PRINT_BATCH = 2_000;

/** The printed route: the names a support engineer greps for, in the order the Looking Glass shows them. */
function printable(route: ReplayRoute) {
  const path = pathColumns(route.asPath);
  return {
    router: route.router,
    view: route.view,
    peer_address: route.peerAddress,
    peer_as: route.peerAsn,
    prefix: route.prefix,
    afi: route.afi,
    safi: route.safi,
    route_distinguisher: route.routeDistinguisher,
    path_id: route.pathId,
    labels: route.labels,
    as_path: path.asPath,
    as_path_set: path.asPathSet,
    as_confed_seq: path.asConfedSeq,
    next_hop: route.nextHop,
    origin: route.origin,
    local_pref: route.localPref,
    med: route.med,
    communities: route.communities,
    large_communities: route.largeCommunities,
    extended_communities: route.extendedCommunities,
  };
}

/**
 * The routes as JSON lines, in batches that wait for stdout to drain: a full table is a million lines,
 * which would otherwise pile up in memory when stdout is a pipe.
 */
async function printRoutes(routes: ReplayRoute[]): Promise<void> {
  for (let first = 0; first < routes.length; first += PRINT_BATCH) {
    const lines = routes.slice(first, first + PRINT_BATCH).map((route) => `${JSON.stringify(printable(route))}\n`);
    if (!process.stdout.write(lines.join(""))) await once(process.stdout, "drain");
  }
}

const number = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;
const endpoint = (address: string, port: number) => (address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`);

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.error(USAGE);
    return 2;
  }
  const unknown = argv.find((arg) => arg.startsWith("-"));
  if (unknown || !argv.length) {
    console.error(unknown ? `unknown option ${unknown}; ${USAGE}` : `no capture file given; ${USAGE}`);
    return 2;
  }
  // Every file is read (and its reassembly reported) before anything is decoded: a bad file stops it all.
  const streams = argv.flatMap((file) => {
    const capture = readTcpCaptureFile(file);
    const bmp = bmpStreamsOf(file, capture.streams);
    for (const line of captureReport(path.basename(file), capture, bmp)) console.error(line);
    return bmp;
  });

  const decoder = new BmpStreamDecoder();
  const table = new ReplayTable();
  // Messages by type name; one that could not be decoded counts under its type (and as a decode error).
  const kinds = new Map<BmpMessageName, number>();
  let badMessages = 0;
  let sessionClosed = false;
  for (const { file, stream, bytes } of streams) {
    if (sessionClosed || !bytes.length) continue;
    const where = `${path.basename(file)}: ${endpoint(stream.srcAddr, stream.srcPort)}`;
    let index = 0;
    // In chunks, as a station reads: the decoded messages of a full table's capture are applied, not all held at once.
    for (let at = 0; at < bytes.length && !sessionClosed; at += CHUNK_BYTES) {
      let decoded: BmpMessage[];
      try {
        decoded = decoder.push(Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(CHUNK_BYTES, bytes.length - at)));
      } catch (error) {
        if (!(error instanceof BmpFramingError)) throw error;
        // A station closes the session here: what came before stays, nothing after is applied.
        console.error(`${where}: ${error.message}; a station closes the session here: the rest of the captures is not applied`);
        sessionClosed = true;
        break;
      }
      for (const message of decoded) {
        index += 1;
        const name = message.kind === "bad" ? bmpMessageName(message.type) : message.kind;
        kinds.set(name, (kinds.get(name) ?? 0) + 1);
        if (message.kind === "bad") {
          badMessages += 1;
          console.error(`${where}: message ${number(index)} of the stream (BMP type ${message.type}): ${message.message}`);
        }
        table.apply(stream.srcAddr, message);
      }
    }
  }

  const routes = table.routes();
  await printRoutes(routes);

  const messages = [...kinds.values()].reduce((n, c) => n + c, 0);
  const byKind = [...kinds].map(([kind, count]) => `${number(count)} ${kind}`).join(", ");
  const peers = new Set(routes.map((r) => `${r.router}|${r.peerAddress}|${r.peerDistinguisher}`));
  const distinguishers = new Set(routes.map((r) => r.routeDistinguisher).filter(Boolean));
  const { counts } = table;
  const skipped = Object.entries(counts.skippedFamilies).map(([family, count]) => `${number(count)} of ${family}`);
  console.error(
    [
      `${plural(messages, "BMP message")}${byKind ? ` (${byKind})` : ""}, ${plural(badMessages, "decode error")}`,
      `${plural(counts.announcements, "announcement")}, ${plural(counts.withdrawals, "withdrawal")}` +
        (counts.withdrawalsNotHeld ? ` (${number(counts.withdrawalsNotHeld)} of routes not held)` : "") +
        (counts.removedByPeerDown ? `, ${plural(counts.removedByPeerDown, "route")} removed by Peer Down` : ""),
      counts.adjRibOutMessages ? `${plural(counts.adjRibOutMessages, "Adj-RIB-Out message")} not applied` : "",
      skipped.length ? `skipped address families: ${skipped.join(", ")}` : "",
      `${plural(routes.length, "route")} left, from ${plural(peers.size, "peer")}, ${plural(distinguishers.size, "route distinguisher")}`,
    ]
      .filter(Boolean)
      .join("; "),
  );
  return 0;
}

// Piped into `head`: the reader going away ends the listing, it is no failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error instanceof CaptureFileError ? error.message : error);
    process.exitCode = 1;
  },
);
