"""A TCP proxy that delays every byte by a fixed time in each direction, in order: a slow
link for fault tests where tc netem is missing (this VM's kernel has none). Bytes a side
sent before it closed are still delivered (as packets in flight would be).

    with DelayProxy("127.0.0.1", 2379, delay_ms=300) as p:
        ... connect to p.endpoint ...
"""
import asyncio
import threading
import time


class DelayProxy:
    def __init__(self, host, port, delay_ms):
        self.target = (host, port)
        self.delay = delay_ms / 1000  # may be changed while the proxy runs
        self.writers = set()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait(10)
        self.endpoint = f"127.0.0.1:{self.port}"

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.set_exception_handler(lambda loop, ctx: None)  # cancelled at close()
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        self.ready.set()
        self.loop.run_forever()

    async def _pipe(self, reader, writer):
        queue = asyncio.Queue()

        async def read():
            while True:
                data = await reader.read(65536)
                await queue.put((time.monotonic() + self.delay, data))
                if not data:
                    return

        async def write():
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if not data:
                    break
                writer.write(data)
                await writer.drain()
            writer.close()

        try:
            await asyncio.gather(read(), write())
        except (ConnectionError, OSError):
            writer.close()

    async def _client(self, reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers.update((writer, up_writer))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer),
                             return_exceptions=True)

    async def _shutdown(self):
        self.server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for w in self.writers:
            w.close()
        await asyncio.sleep(0)  # let the transports close

    def close(self):
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
