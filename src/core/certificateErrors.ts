// A TLS certificate the transport refused, as its own error kind: which host, what is wrong with its certificate
// (an issuer this machine does not trust, expired, issued for another name) and what fixes it. Node's own text for
// the commonest case ends "try running Node.js with --use-system-ca", a flag no VS Code user can pass: the message
// here is built from the error's code, never from that text.
import type { ServiceId } from '../shared/serviceIds.ts';
import { SERVICE_NAMES, ServiceError } from './errors.ts';
import { type ProxyConfig, proxySecrets, shownProxy } from './proxyConfig.ts';

type Problem = 'untrusted' | 'expired' | 'notYetValid' | 'wrongName' | 'invalid';

/** OpenSSL's verify results as Node names them (node: src/crypto/crypto_common.cc), and Node's own name check. */
const PROBLEMS: Record<string, Problem> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  CERT_HAS_EXPIRED: 'expired',
  ERROR_IN_CERT_NOT_AFTER_FIELD: 'expired',
  CERT_NOT_YET_VALID: 'notYetValid',
  ERROR_IN_CERT_NOT_BEFORE_FIELD: 'notYetValid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrongName',
  HOSTNAME_MISMATCH: 'wrongName',
  CERT_REVOKED: 'invalid',
  CERT_REJECTED: 'invalid',
  CERT_SIGNATURE_FAILURE: 'invalid',
  CERT_CHAIN_TOO_LONG: 'invalid',
  INVALID_CA: 'invalid',
  INVALID_PURPOSE: 'invalid',
  PATH_LENGTH_EXCEEDED: 'invalid',
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: 'invalid',
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: 'invalid',
};

const WHAT: Record<Problem, (code: string) => string> = {
  untrusted: (code) =>
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
      ? 'it is self-signed, and this machine does not trust it'
      : code === 'SELF_SIGNED_CERT_IN_CHAIN'
        ? 'its chain ends in a root this machine does not trust'
        : 'no certificate authority this machine trusts issued it',
  expired: () => 'it has expired',
  notYetValid: () => 'it is not valid yet',
  wrongName: () => 'it was issued for another name',
  invalid: () => 'it is not valid',
};

function advice(problem: Problem, host: string, proxy: ProxyConfig | undefined): string {
  switch (problem) {
    case 'untrusted':
      // Node reads the system store once per process (measured: tls.getCACertificates('system') and the store the
      // connections use keep their first answer), so a window holds what it read when it started.
      return proxy?.systemCertificates === false
        ? "The system's certificate store is not read (http.systemCertificates is off; KEYWARD_SYSTEM_CA=0 for the CLI): turn it on and reload the window, or give the CLI the authority's PEM file in NODE_EXTRA_CA_CERTS."
        : "Add the certificate authority that issued it to the system's certificate store, then reload the window: VS Code's extension host reads the store once, when it starts (keep http.systemCertificates on). The CLI reads the store on each run, and also takes the authority's PEM file in NODE_EXTRA_CA_CERTS. Behind a network that inspects TLS, the authority to add is the network's own.";
    case 'expired':
      return `Whoever runs ${host} must renew its certificate; if it was renewed, check this machine's date and time.`;
    case 'notYetValid':
      return "Check this machine's date and time; if they are right, the certificate's start date is wrong.";
    case 'wrongName':
      return `Check the base URL names the host the service really answers on; otherwise whoever runs ${host} must issue a certificate for that name.`;
    case 'invalid':
      return `Whoever runs ${host} must fix its certificate; until then Keyward does not send the key there.`;
  }
}

/** The certificate error Node or undici threw (possibly as the cause of another), or undefined. */
function certificateCause(error: unknown): { code: string; reason?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const { code, reason } = current as { code?: unknown; reason?: unknown };
    if (typeof code === 'string' && Object.hasOwn(PROBLEMS, code))
      return { code, ...(typeof reason === 'string' ? { reason } : {}) };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A refused certificate in the shared error language, or undefined when `error` is something else. */
export function certificateError(
  error: unknown,
  service: ServiceId,
  where: string,
  proxy?: ProxyConfig,
): ServiceError | undefined {
  const cause = certificateCause(error);
  if (!cause) return undefined;
  const problem = PROBLEMS[cause.code]!;
  let host = where;
  try {
    host = new URL(where).host;
  } catch {
    // `where` is shown as it is
  }
  const through = proxy?.url ? `, through the proxy ${shownProxy(proxy.url)}` : '';
  // Node's reason for a wrong name says which names the certificate holds: "Host: x. is not in the cert's altnames: …"
  const detail = problem === 'wrongName' && cause.reason ? `${cause.reason}; ${cause.code}` : cause.code;
  return new ServiceError({
    kind: 'certificate',
    service,
    code: cause.code,
    message: `Keyward did not accept the certificate of ${host} (the ${SERVICE_NAMES[service]} at ${where}${through}): ${WHAT[problem](cause.code)} (${detail}).`,
    action: advice(problem, host, proxy),
    secrets: proxySecrets(proxy),
    cause: error,
  });
}
