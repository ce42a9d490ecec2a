#!/usr/bin/env python3
"""A delaying TCP proxy on 127.0.0.1 for the benchmark: a network at internet distance on one machine.

Listens on 127.0.0.1, forwards each connection to a target port on 127.0.0.1, and delays every byte by a one-way
delay in each direction (default 25 ms, so 50 ms round trip), paces each direction (all connections together) to a
bandwidth cap (default 100 Mbit/s, 0 for none), and holds a new connection for a set-up cost before the first byte
moves (default one round trip, what a TCP handshake costs before the request can go out). The connection to the
target opens when the client's first bytes, sent right after its handshake, reach it (the set-up cost plus the one-way
delay), as a server accepts a connection when the handshake's last packet arrives: a server that runs a process per
connection (git daemon counts them, and stops at 32) holds it no longer than over a network.

    latency_proxy.py --target PORT [--port 0] [--rtt 50] [--bandwidth 100] [--setup MS]

Prints the port it listens on as its first line of stdout, then serves until its stdin reaches end of file (the
benchmark that started it holds the pipe, so the proxy stops when the benchmark ends, killed or not) or SIGTERM.
Standard library only."""

import argparse
import asyncio
import signal
import sys
import time

CHUNK = 1 << 16
# chunks queued per direction before reading stops (backpressure): far above what 100 Mbit/s holds in flight
QUEUE_CHUNKS = 256


class Link:
    """One direction of one connection: every chunk leaves `delay` seconds after the link has sent it."""

    def __init__(self, delay, bytes_per_second):
        self.delay = delay
        self.rate = bytes_per_second
        self.free_at = 0.0

    def delivery_time(self, size, now):
        start = max(now, self.free_at)
        self.free_at = start + (size / self.rate if self.rate else 0.0)
        return self.free_at + self.delay


async def pump(reader, writer_ready, link):
    """Copies `reader` to the writer `writer_ready` (a future) gives, through `link`; closes the writing side when the
    reader ends. Reading starts at once: what arrives before the writer is there waits for it."""
    queue = asyncio.Queue(QUEUE_CHUNKS)

    async def receive():
        while True:
            try:
                data = await reader.read(CHUNK)
            except OSError:
                # A reset (sshd turning a connection away) ends this direction as an end of file does; without the
                # marker `deliver` would wait forever and hold the other side open.
                data = b""
            await queue.put((link.delivery_time(len(data), time.monotonic()), data))
            if not data:
                return

    async def deliver():
        writer = await writer_ready
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    receiving = asyncio.ensure_future(receive())
    try:
        await deliver()
    finally:
        receiving.cancel()


async def handle(client_reader, client_writer, options):
    loop = asyncio.get_running_loop()
    upstream = loop.create_future()
    downstream = loop.create_future()
    downstream.set_result(client_writer)
    # the client's bytes are read (and timed) from now on; they reach the server once its connection is there
    to_server = asyncio.ensure_future(pump(client_reader, upstream, options.upstream))
    server_writer = None
    try:
        await asyncio.sleep(options.setup + options.delay)
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", options.target)
    except OSError:
        to_server.cancel()
        client_writer.close()
        return
    upstream.set_result(server_writer)
    try:
        await asyncio.gather(to_server, pump(server_reader, downstream, options.downstream))
    except (OSError, asyncio.IncompleteReadError, asyncio.CancelledError):
        pass
    finally:
        to_server.cancel()
        for writer in (client_writer, server_writer):
            writer.close()


async def serve(options):
    server = await asyncio.start_server(lambda r, w: handle(r, w, options), "127.0.0.1", options.port,
                                        backlog=1024, reuse_address=True)
    print(server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))
    # stdin at end of file: whoever started the proxy is gone
    loop.add_reader(sys.stdin.fileno(), lambda: sys.stdin.buffer.raw.read(4096) or stop.done() or stop.set_result(None))
    async with server:
        await stop


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, required=True, help="port on 127.0.0.1 to forward to")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: any free one)")
    parser.add_argument("--rtt", type=float, default=50, help="round trip added, ms (half each way; default 50)")
    parser.add_argument("--bandwidth", type=float, default=100, help="Mbit/s each way, shared by all connections; 0 for none")
    parser.add_argument("--setup", type=float, help="ms a new connection waits before data moves (default: one rtt)")
    options = parser.parse_args()
    options.delay = options.rtt / 2000
    options.setup = (options.rtt if options.setup is None else options.setup) / 1000
    # one link each way shared by every connection, as one line to the server is
    rate = options.bandwidth * 1_000_000 / 8
    options.upstream = Link(options.delay, rate)
    options.downstream = Link(options.delay, rate)
    asyncio.run(serve(options))


if __name__ == "__main__":
    main()
