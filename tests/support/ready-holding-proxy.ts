/**
 * A TCP proxy in front of a PostgreSQL server that holds back the ReadyForQuery following an error for a
 * while, as a loaded machine may: PostgreSQL sends an error before it aborts the transaction and says
 * ReadyForQuery only after, so until that ReadyForQuery comes the failed transaction may still hold its
 * locks. A client that reports the error before the ReadyForQuery is past (held() > 0 at that moment) would
 * read locks that are about to go. Only the server's messages are read; the client's pass through as sent.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReadyHoldingProxy {
  /** The URL with the proxy's host and port in place of the server's. */
  url: string;
  /** How many connections have a ReadyForQuery after an error not yet passed on. */
  held(): number;
  close(): Promise<void>;
}

export async function startReadyHoldingProxy(serverUrl: string, holdMs: number): Promise<ReadyHoldingProxy> {
  const server = new URL(serverUrl);
  let held = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(server.port || 5432), server.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => upstream.write(chunk));
    let pending = Buffer.alloc(0);
    let afterError = false;
    // Messages go on in order: one held ReadyForQuery holds back everything after it too.
    let sent: Promise<void> = Promise.resolve();
    upstream.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const end = 1 + pending.readInt32BE(1);
        const message = pending.subarray(0, end);
        pending = pending.subarray(end);
        const type = String.fromCharCode(message[0]!);
        const hold = type === 'Z' && afterError;
        if (type === 'E') afterError = true;
        if (type === 'Z') afterError = false;
        if (hold) held += 1;
        sent = sent.then(async () => {
          if (hold) await sleep(holdMs);
          if (!client.destroyed) client.write(message);
          if (hold) held -= 1;
        });
      }
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', () => void sent.then(closeBoth)).on('error', closeBoth);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String((proxy.address() as net.AddressInfo).port);
  url.searchParams.delete('host');
  return {
    url: url.href,
    held: () => held,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
