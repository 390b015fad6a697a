import type { Readable } from "node:stream";
import { bgp4mpHandles, bgp4mpSkipReason, readBgp4mp } from "./bgp4mp";
import { ByteReader } from "./byte-reader";
import { Cursor } from "./cursor";
import { decompressedChunks, type Compression } from "./decompress";
import { MrtFormatError, MrtRecordError } from "./errors";
import { readPeerIndexTable, readRibRecord, RIB_UNICAST } from "./table-dump-v2";
import { KNOWN_MRT_TYPES, MRT_TYPE, TABLE_DUMP_V2_SUBTYPE, type MrtRecord, type Peer } from "./types";

const HEADER_BYTES = 12;
/** The largest record accepted; real RIB records stay far below (the biggest known is ~70 KB). */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export type DecodeOptions = { onCompression?: (compression: Compression) => void };

/**
 * The records of an MRT stream (RFC 6396), plain, gzip or bzip2, one at a time: only the record
 * being decoded is in memory, and the source is read only as fast as records are consumed.
 *
 * Records that cannot be decoded are yielded as "bad" (their framing says where the next one
 * starts) and other types as "skipped". The stream stops with MrtFormatError when it is not MRT
 * or is damaged, and with MrtTruncatedError (naming the byte offset) when it ends inside a
 * record; every record before that point has been yielded.
 */
export async function* decodeMrt(source: Readable, options: DecodeOptions = {}): AsyncGenerator<MrtRecord> {
  const reader = new ByteReader(decompressedChunks(source, options.onCompression)[Symbol.asyncIterator]());
  let peers: Peer[] | null = null;
  let first = true;
  while (!(await reader.atEnd())) {
    const offset = reader.offset;
    const head = await reader.read(HEADER_BYTES, offset, 0);
    const timestamp = head.readUInt32BE(0);
    const type = head.readUInt16BE(4);
    const subtype = head.readUInt16BE(6);
    const length = head.readUInt32BE(8);
    if (first && !KNOWN_MRT_TYPES.has(type)) {
      throw new MrtFormatError(`not an MRT file: the first record has type ${type}, which RFC 6396 does not define`);
    }
    if (length > MAX_RECORD_BYTES) {
      throw new MrtFormatError(`MRT record at byte offset ${offset} claims ${length} bytes: the stream is damaged or not MRT`);
    }
    first = false;
    const body = new Cursor(await reader.read(length, offset, HEADER_BYTES));
    const isEt = type === MRT_TYPE.BGP4MP_ET;
    const base = { offset, timestamp, microseconds: 0, type, subtype };
    try {
      // Extended timestamp records carry microseconds inside the counted length (§3).
      if (isEt) base.microseconds = body.u32("the microsecond timestamp");
      if (type === MRT_TYPE.TABLE_DUMP_V2 && subtype === TABLE_DUMP_V2_SUBTYPE.PEER_INDEX_TABLE) {
        const table = readPeerIndexTable(base, body);
        peers = table.peers;
        yield table;
      } else if (type === MRT_TYPE.TABLE_DUMP_V2 && RIB_UNICAST[subtype]) {
        yield readRibRecord(base, body, peers);
      } else if ((type === MRT_TYPE.BGP4MP || isEt) && bgp4mpHandles(subtype)) {
        yield readBgp4mp(base, body);
      } else {
        yield { ...base, kind: "skipped", reason: skipReason(type, subtype) };
      }
    } catch (error) {
      if (!(error instanceof MrtRecordError)) throw error;
      yield { ...base, kind: "bad", message: `MRT record at byte offset ${offset} (type ${type}/${subtype}): ${error.message}` };
    }
  }
}

const TABLE_DUMP_V2_NAMES = Object.fromEntries(Object.entries(TABLE_DUMP_V2_SUBTYPE).map(([name, code]) => [code, name]));

function skipReason(type: number, subtype: number): string {
  if (type === MRT_TYPE.TABLE_DUMP_V2) return `TABLE_DUMP_V2 ${TABLE_DUMP_V2_NAMES[subtype] ?? `subtype ${subtype}`}`;
  if (type === MRT_TYPE.BGP4MP || type === MRT_TYPE.BGP4MP_ET) return bgp4mpSkipReason(subtype);
  if (type === MRT_TYPE.TABLE_DUMP) return "TABLE_DUMP (the legacy RIB format)";
  return `MRT type ${type}`;
}
