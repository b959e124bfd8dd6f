/**
 * Iggy traffic a capture holds but cannot read (captures.md "Which connections are Iggy": QUIC (8080)
 * and TLS are encrypted and are said to be so): a TLS record at a stream's first byte, and UDP on the
 * QUIC port.
 */

/** Iggy's default QUIC port (UDP); a datagram to or from it is counted as encrypted QUIC. */
export const QUIC_PORT = 8080;

/** Largest TLS record body: 2^14 plus the 2048 bytes of expansion RFC 8446 §5.2 allows. */
const TLS_MAX_RECORD = (1 << 14) + 2048;

/**
 * True when `bytes` begin with a TLS record header (RFC 8446 §5.1: content type 20..23, legacy version
 * 3.0..3.4, a length a record may have). A consensus header cannot: on client connections its first
 * byte is a zero checksum byte.
 */
export function startsWithTlsRecord(bytes: Uint8Array): boolean {
  if (bytes.length < 5) return false;
  const type = bytes[0]!;
  const length = (bytes[3]! << 8) | bytes[4]!;
  return type >= 20 && type <= 23 && bytes[1] === 3 && bytes[2]! <= 4 && length > 0 && length <= TLS_MAX_RECORD;
}
