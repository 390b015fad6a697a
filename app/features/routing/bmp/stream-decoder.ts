import { Cursor } from "../mrt/cursor";
import { BmpFramingError, BmpTruncatedError } from "./errors";
import { readMessageBody, type PeerCapabilities, type PeerTable } from "./messages";
import { bmpMessageTitle } from "./names";
import { peerKey } from "./peer-header";
import type { BmpMessage, BmpPeer } from "./types";

/** The common header (RFC 7854 §4.1): version (1 byte), message length (4, header included), type (1). */
const HEADER_BYTES = 6;
const BMP_VERSION = 3;
/** No BMP message comes near this (a BGP message is at most 64 KiB): a larger length is garbage. */
export const MAX_BMP_MESSAGE_BYTES = 16 * 1024 * 1024;

class SessionPeers implements PeerTable {
  private readonly peers = new Map<string, PeerCapabilities>();
  get(peer: BmpPeer) {
    return this.peers.get(peerKey(peer));
  }
  up(peer: BmpPeer, capabilities: PeerCapabilities) {
    this.peers.set(peerKey(peer), capabilities);
  }
  down(peer: BmpPeer) {
    this.peers.delete(peerKey(peer));
  }
  clear() {
    this.peers.clear();
  }
  get size() {
    return this.peers.size;
  }
}

/**
 * Decodes the byte stream of one BMP session (RFC 7854 v3, RFC 8671, RFC 9069) as it arrives.
 *
 * `push(chunk)` returns the messages completed by the chunk and keeps a partial one for the next
 * chunk; `end()` tells whether the stream stopped inside a message. Memory: the header of the
 * message in progress, or its body in one buffer of its announced length (at most 16 MiB), plus
 * the chunk being read — a message whole in its chunk is decoded in place, not copied.
 *
 * Framing errors (not version 3, a length below 6 or above 16 MiB) throw BmpFramingError: the stream
 * cannot be followed any further and every later call throws it again. A well-framed message whose
 * content does not decode is returned as `{ kind: "bad" }`, and the next message is read as usual.
 *
 * Per session, the decoder keeps the capabilities each Peer Up negotiated (ADD-PATH per family),
 * forgotten at that peer's Peer Down or at Termination; Route Monitoring messages are read with them.
 */
export class BmpStreamDecoder {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private pending: { type: number; body: Buffer; fill: number } | null = null;
  /** Stream offset of the message being read. */
  private messageOffset = 0;
  private failure: BmpFramingError | null = null;
  private readonly peers = new SessionPeers();

  /** Bytes of complete messages so far. */
  get offset(): number {
    return this.messageOffset;
  }

  /** Peers whose Peer Up was seen and whose Peer Down was not. */
  get peersUp(): number {
    return this.peers.size;
  }

  push(chunk: Buffer): BmpMessage[] {
    if (this.failure) throw this.failure;
    const messages: BmpMessage[] = [];
    try {
      let at = 0;
      while (at < chunk.length) {
        if (!this.pending) {
          const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - at);
          chunk.copy(this.header, this.headerFill, at, at + take);
          this.headerFill += take;
          at += take;
          // The version byte comes first: garbage is refused without waiting for more of it.
          if (this.header[0] !== BMP_VERSION) {
            throw new BmpFramingError(
              `not a BMP v3 stream: the message at byte offset ${this.messageOffset} has version ${this.header[0]}`,
              this.messageOffset,
            );
          }
          if (this.headerFill < HEADER_BYTES) break;
          const length = this.header.readUInt32BE(1);
          const type = this.header[5];
          if (length < HEADER_BYTES || length > MAX_BMP_MESSAGE_BYTES) {
            throw new BmpFramingError(
              `the BMP message at byte offset ${this.messageOffset} announces ${length} bytes, outside 6 … ${MAX_BMP_MESSAGE_BYTES}`,
              this.messageOffset,
            );
          }
          const bodyLength = length - HEADER_BYTES;
          if (chunk.length - at >= bodyLength) {
            messages.push(this.decode(type, chunk, at, at + bodyLength));
            at += bodyLength;
            this.finishMessage(length);
            continue;
          }
          this.pending = { type, body: Buffer.allocUnsafe(bodyLength), fill: 0 };
        }
        const pending = this.pending;
        const take = Math.min(pending.body.length - pending.fill, chunk.length - at);
        chunk.copy(pending.body, pending.fill, at, at + take);
        pending.fill += take;
        at += take;
        if (pending.fill === pending.body.length) {
          this.pending = null;
          messages.push(this.decode(pending.type, pending.body, 0, pending.body.length));
          this.finishMessage(pending.body.length + HEADER_BYTES);
        }
      }
    } catch (error) {
      if (!(error instanceof BmpFramingError)) throw error;
      this.pending = null;
      this.failure = error;
      error.decoded = messages;
      throw error;
    }
    return messages;
  }

  /** The stream is over: throws BmpTruncatedError if it stopped inside a message. */
  end(): void {
    if (this.failure) throw this.failure;
    if (this.headerFill === 0) return;
    const needed = this.pending ? this.pending.body.length + HEADER_BYTES : HEADER_BYTES;
    const present = this.pending ? this.pending.fill + HEADER_BYTES : this.headerFill;
    this.failure = new BmpTruncatedError(this.messageOffset, needed, present);
    this.pending = null;
    throw this.failure;
  }

  private finishMessage(length: number): void {
    this.headerFill = 0;
    this.messageOffset += length;
  }

  private decode(type: number, buffer: Buffer, start: number, end: number): BmpMessage {
    let peer: BmpPeer | undefined;
    try {
      return readMessageBody(type, new Cursor(buffer, start, end), this.peers, (p) => (peer = p));
    } catch (error) {
      // Whatever the content's fault (a short field, a bad value), the framing holds: the session goes on.
      const reason = error instanceof Error ? error.message : String(error);
      const from = peer ? ` from peer ${peer.address || `Loc-RIB${peer.distinguisher ? ` ${peer.distinguisher}` : ""}`}` : "";
      return {
        kind: "bad",
        type,
        message: `${bmpMessageTitle(type)}${from} at byte offset ${this.messageOffset}: ${reason}`,
        ...(peer ? { peer } : {}),
      };
    }
  }
}
