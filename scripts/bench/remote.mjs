// A "remote" service on loopback, for the benchmark's remote mode: the sandbox behind TLS (a
// certificate authority and a server certificate for 127.0.0.1 made at run time with the
// openssl CLI) and a TCP proxy in front that adds a round-trip time.
//
//   client ──TCP──▶ latency proxy (RTT/2 each way; connect costs one RTT) ──TCP──▶ TLS terminator ──TCP──▶ sandbox (plain HTTP)
//
// The proxy sits before TLS, so the TCP handshake, the TLS handshake and every request pay the
// round trips a remote HTTPS service would cost. Clients trust the generated authority through
// NODE_EXTRA_CA_CERTS in their own process: no certificate check is turned off anywhere.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

/** Whether the openssl CLI can be run; the remote mode needs it to make the certificates. */
export function opensslAvailable() {
	try {
		execFileSync('openssl', ['version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/**
 * Makes a throw-away certificate authority and a server certificate for 127.0.0.1 / localhost
 * signed by it, in `dir`. Returns the PEM file paths (`ca` goes into NODE_EXTRA_CA_CERTS).
 */
export function makeCertificates(dir) {
	fs.mkdirSync(dir, { recursive: true });
	const file = (name) => path.join(dir, name);
	const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
	// P-256 keys: what most HTTPS services use today, and cheap handshakes on both sides.
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
	openssl('req', '-x509', ...ec, '-nodes', '-days', '1', '-subj', '/CN=recruiting-bench CA',
		'-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
		'-keyout', file('ca.key'), '-out', file('ca.pem'));
	openssl('req', ...ec, '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr'));
	fs.writeFileSync(
		file('server.ext'),
		'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
	);
	openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial',
		'-days', '1', '-extfile', file('server.ext'), '-out', file('server.pem'));
	return { ca: file('ca.pem'), key: file('server.key'), cert: file('server.pem') };
}

const listen = (server) =>
	new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(server.address().port));
	});

/** Tracks a server's open sockets so that `close` ends them too. */
function closable(server) {
	const sockets = new Set();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	return () =>
		new Promise((resolve) => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
}

/** TLS in front of a plain TCP service: decrypts and forwards each connection to 127.0.0.1:`targetPort`. */
export async function startTlsTerminator({ key, cert, targetPort }) {
	const server = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (secure) => {
		const plain = net.connect(targetPort, '127.0.0.1');
		plain.setNoDelay(true);
		secure.pipe(plain).pipe(secure);
		const destroy = () => {
			secure.destroy();
			plain.destroy();
		};
		secure.once('error', destroy);
		plain.once('error', destroy);
		secure.once('close', () => plain.end());
		plain.once('close', () => secure.end());
	});
	const close = closable(server);
	const port = await listen(server);
	return { port, close };
}

/**
 * One direction of a proxied connection: every chunk (and the end) is written to `to` at its
 * due time, in arrival order. `dueAt(now)` gives the time a chunk arriving now is delivered.
 */
function delayedPipe(from, to, dueAt) {
	const queue = [];
	let timer;
	const flush = () => {
		timer = undefined;
		const now = performance.now();
		while (queue.length > 0 && queue[0].due <= now + 0.5) {
			const { chunk } = queue.shift();
			if (to.destroyed) return;
			if (chunk === null) to.end();
			else to.write(chunk);
		}
		if (queue.length > 0) timer = setTimeout(flush, queue[0].due - performance.now());
	};
	const push = (chunk) => {
		queue.push({ chunk, due: dueAt(performance.now()) });
		if (timer === undefined) timer = setTimeout(flush, queue[0].due - performance.now());
	};
	from.on('data', push);
	from.once('end', () => push(null));
	return () => clearTimeout(timer);
}

/**
 * A TCP proxy on 127.0.0.1 to 127.0.0.1:`targetPort` that behaves like a link with round-trip
 * time `rttMs`: a chunk takes rttMs/2 in either direction, and a new connection can carry data
 * only one RTT after it was opened (the SYN / SYN-ACK exchange), so what the client sends
 * at once arrives 1.5 RTT after it connected. Order is kept per connection and direction.
 */
export async function startLatencyProxy({ rttMs, targetPort }) {
	const half = rttMs / 2;
	const server = net.createServer((client) => {
		const opened = performance.now();
		client.setNoDelay(true);
		const upstream = net.connect(targetPort, '127.0.0.1');
		upstream.setNoDelay(true);
		const stops = [
			delayedPipe(client, upstream, (now) => Math.max(now, opened + rttMs) + half),
			delayedPipe(upstream, client, (now) => now + half),
		];
		const destroy = () => {
			for (const stop of stops) stop();
			client.destroy();
			upstream.destroy();
		};
		client.once('error', destroy);
		upstream.once('error', destroy);
		client.once('close', () => setTimeout(() => upstream.destroy(), half + 5).unref());
		upstream.once('close', () => setTimeout(() => client.destroy(), half + 5).unref());
	});
	const close = closable(server);
	const port = await listen(server);
	return { port, rttMs, close };
}
