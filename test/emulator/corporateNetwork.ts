// A corporate network in miniature, for the proxy and certificate tests: a private certificate authority made at
// run time (selfsigned, over @peculiar/x509), a TLS front signed by it that passes the decrypted bytes to the
// emulator (so https://localhost:PORT/… is the emulator behind a certificate no public store trusts), and a real
// CONNECT proxy (TooTallNate's `proxy`, the one proxy-agents tests against) that records each tunnel it opens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { createProxy } from 'proxy';
import { generate } from 'selfsigned';

export interface PrivateCa {
  /** The authority's certificate, PEM, in a file (for NODE_EXTRA_CA_CERTS or SSL_CERT_FILE). */
  caFile: string;
  caPem: string;
  /** The authority's private key, to sign other certificates (see `leafCertificate`). */
  caKey: string;
  /** The server's key and certificate for localhost and 127.0.0.1, signed by the authority. */
  key: string;
  cert: string;
  dispose(): void;
}

/** A server certificate signed by `ca`: for other names than localhost, or one that expired yesterday. */
export async function leafCertificate(
  ca: PrivateCa,
  options: { names?: string[]; expired?: boolean } = {},
): Promise<{ key: string; cert: string }> {
  const day = 86_400_000;
  const names = options.names ?? ['localhost'];
  const leaf = await generate([{ name: 'commonName', value: names[0]! }], {
    keySize: 2048,
    algorithm: 'sha256',
    ...(options.expired
      ? { notBeforeDate: new Date(Date.now() - 30 * day), notAfterDate: new Date(Date.now() - day) }
      : { notAfterDate: new Date(Date.now() + 2 * day) }),
    ca: { key: ca.caKey, cert: ca.caPem },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2, value })) },
    ],
  });
  return { key: leaf.private, cert: leaf.cert };
}

export async function privateCa(): Promise<PrivateCa> {
  const notAfterDate = new Date(Date.now() + 2 * 86_400_000);
  const ca = await generate([{ name: 'commonName', value: 'Keyward Test Corporate Root' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'keyward-ca-'));
  const caFile = join(dir, 'corporate-root.pem');
  writeFileSync(caFile, ca.cert);
  return {
    caFile,
    caPem: ca.cert,
    caKey: ca.private,
    key: leaf.private,
    cert: leaf.cert,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsFront {
  port: number;
  /** The origin through TLS, e.g. https://localhost:PORT. */
  origin: string;
  /** Connections it was asked for (a refused handshake counts): a retry is another one. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * https://localhost:PORT in front of an http server on this machine (the emulator), with the private CA's cert, or
 * with `leaf` (another name, expired).
 */
export async function tlsFront(
  ca: PrivateCa,
  targetPort: number,
  leaf: { key: string; cert: string } = ca,
): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: leaf.key, cert: leaf.cert }, (secure) => {
    const plain = connect(targetPort, '127.0.0.1');
    for (const socket of [secure, plain] as Socket[]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    secure.pipe(plain).pipe(secure);
  });
  // A client that refuses the certificate ends the handshake; that is the test's point, not an error here.
  server.on('tlsClientError', () => undefined);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `https://localhost:${port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Tunnel {
  /** The CONNECT request line's target, host:port. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface ConnectProxy {
  url: string;
  /** Every CONNECT the proxy was asked for, in order. */
  tunnels: Tunnel[];
  /** Plain (non-CONNECT) requests it was sent: a key must never travel so. */
  plain: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A real CONNECT proxy on 127.0.0.1; with `credentials` ("user:password") it demands Basic proxy authorisation. */
export async function connectProxy(credentials?: string): Promise<ConnectProxy> {
  const tunnels: Tunnel[] = [];
  const plain: ConnectProxy['plain'] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer();
  // Recorded before the proxy's own listeners run, so a refused tunnel is recorded too.
  server.on('connect', (req) => tunnels.push({ target: req.url ?? '', headers: req.headers }));
  server.on('request', (req) => plain.push({ url: req.url ?? '', headers: req.headers }));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const proxy = createProxy(server);
  if (credentials) {
    const expected = `Basic ${Buffer.from(credentials).toString('base64')}`;
    proxy.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    plain,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A CONNECT proxy that demands Basic credentials and answers a wrong or missing one with `status`: 407, the standard
 * answer, or 401, as tinyproxy does. Right credentials open the tunnel.
 */
export async function guardedProxy(status: 401 | 407, credentials: string): Promise<ConnectProxy> {
  const tunnels: Tunnel[] = [];
  const sockets = new Set<Socket>();
  const expected = `Basic ${Buffer.from(credentials).toString('base64')}`;
  const server = createHttpServer((req, res) => res.writeHead(405).end());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket) => {
    tunnels.push({ target: req.url ?? '', headers: req.headers });
    client.on('error', () => undefined);
    if (req.headers['proxy-authorization'] !== expected) {
      const reason = status === 401 ? 'Unauthorized' : 'Proxy Authentication Required';
      const challenge = status === 401 ? 'WWW-Authenticate' : 'Proxy-Authenticate';
      client.end(`HTTP/1.1 ${status} ${reason}\r\n${challenge}: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host = '', port = '443'] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    plain: [],
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A corporate network in front of the emulator: its private authority, a TLS front, an open and a guarded proxy. */
export interface CorporateNetwork {
  ca: PrivateCa;
  front: TlsFront;
  proxy: ConnectProxy;
  /** Demands the credentials it was made with. */
  guarded: ConnectProxy;
  /** Forgets what both proxies saw, for the next test. */
  forget(): void;
  close(): Promise<void>;
}

/** The network the proxy tests (CLI and transport) run behind; `credentials` ("user:password") guard the second proxy. */
export async function corporateNetwork(emulatorUrl: string, credentials: string): Promise<CorporateNetwork> {
  const ca = await privateCa();
  const front = await tlsFront(ca, Number(new URL(emulatorUrl).port));
  const proxy = await connectProxy();
  const guarded = await connectProxy(credentials);
  return {
    ca,
    front,
    proxy,
    guarded,
    forget: () => {
      for (const seen of [proxy, guarded]) {
        seen.tunnels.length = 0;
        seen.plain.length = 0;
      }
    },
    close: async () => {
      await Promise.all([front.close(), proxy.close(), guarded.close()]);
      ca.dispose();
    },
  };
}
