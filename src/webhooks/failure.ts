/**
 * Turns a fetch error into the one-line reason the delivery log shows (docs/interface.md §6.5).
 * TLS failures name what was wrong with the certificate; everything else keeps the client's error
 * code.
 */
const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed certificate",
  SELF_SIGNED_CERT_IN_CHAIN: "self-signed certificate in the chain",
  CERT_HAS_EXPIRED: "certificate has expired",
  CERT_NOT_YET_VALID: "certificate is not yet valid",
  ERR_TLS_CERT_ALTNAME_INVALID: "certificate does not match the host name",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "certificate is not signed by a trusted authority",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "certificate is not signed by a trusted authority",
  UNABLE_TO_GET_ISSUER_CERT: "certificate is not signed by a trusted authority",
  CERT_REVOKED: "certificate was revoked",
};

const CONNECTION_REASONS: Record<string, string> = {
  ConnectionRefused: "connection refused",
  ECONNREFUSED: "connection refused",
  ConnectionClosed: "connection closed before a response",
  ECONNRESET: "connection reset before a response",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  FailedToOpenSocket: "could not open a connection",
};

export function describeFetchError(err: unknown): string {
  const code = String((err as { code?: unknown })?.code ?? (err as Error)?.name ?? "error");
  if (TLS_REASONS[code]) return `TLS error: ${TLS_REASONS[code]} (${code})`;
  if (/CERT|TLS|SSL|HANDSHAKE/i.test(code)) return `TLS error (${code})`;
  if (CONNECTION_REASONS[code]) return `${CONNECTION_REASONS[code]} (${code})`;
  const message = ((err as Error)?.message ?? "").replace(/\. For more information.*$/s, "").slice(0, 300);
  return message ? `connection failed (${code}): ${message}` : `connection failed (${code})`;
}
