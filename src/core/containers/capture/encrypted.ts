/**
 * Iggy traffic a capture holds but cannot read (captures.md "Which connections are Iggy": QUIC (8080)
 * and TLS are encrypted and are said to be so): a TLS record at a stream's first byte, and UDP on the
 * QUIC port.
 */

/** Iggy's default QUIC port (UDP); a datagram to or from it is counted as encrypted QUIC. */
export const QUIC_PORT = 8080;

/** What a TLS record header may hold (RFC 8446 §5.1, §5.2): content types, the legacy versions 3.0..3.4, and a body up to 2^14 + 2048 bytes. */
export const TLS_RECORD = { firstType: 20, lastType: 23, major: 3, lastMinor: 4, maxLength: (1 << 14) + 2048 } as const;

/**
 * True when `bytes` begin with a TLS record header (RFC 8446 §5.1: content type 20..23, legacy version
 * 3.0..3.4, a length a record may have). A consensus header cannot: on client connections its first
 * byte is a zero checksum byte.
 */
export function startsWithTlsRecord(bytes: Uint8Array): boolean {
  if (bytes.length < 5) return false;
  const type = bytes[0]!;
  const length = (bytes[3]! << 8) | bytes[4]!;
  const r = TLS_RECORD;
  return type >= r.firstType && type <= r.lastType && bytes[1] === r.major && bytes[2]! <= r.lastMinor && length > 0 && length <= r.maxLength;
}
