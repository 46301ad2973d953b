"""Pre-fork servers: a module-level generator with a leased node source (``local:``) made in
the parent, then workers forked from it (gunicorn --preload, multiprocessing's fork start
method). Each worker claims a slot of its own on first use; no id is issued twice, and the
parent keeps its slot. (A static node id still raises ForkDetected: test_fork.py.)"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import List, Tuple

import pytest

from snowfleet import Generator, decode

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

# Set by the test before the pool forks: what every worker inherits.
_GEN: "Generator | None" = None


def _mint(n: int) -> Tuple[int, int, List[int]]:
    assert _GEN is not None
    ids = [_GEN.next_id() for _ in range(n)]
    return os.getpid(), _GEN.node_id, ids


def test_multiprocessing_fork_workers_claim_their_own_slots(tmp_path: Path) -> None:
    global _GEN
    _GEN = Generator(node_source=f"local:{tmp_path}", mode="monotonic")
    parent_node = _GEN.node_id
    parent_ids = [_GEN.next_id() for _ in range(1000)]
    ctx = multiprocessing.get_context("fork")
    try:
        with ctx.Pool(3) as pool:
            results = pool.map(_mint, [2000] * 12)
    finally:
        gen, _GEN = _GEN, None
    nodes_by_pid = {}
    all_ids = list(parent_ids)
    for pid, node, ids in results:
        assert nodes_by_pid.setdefault(pid, node) == node  # one claim per worker
        assert all(decode(i).node_id == node for i in ids)
        all_ids.extend(ids)
    assert parent_node not in nodes_by_pid.values()
    assert len(set(nodes_by_pid.values())) == len(nodes_by_pid)  # distinct slots
    assert len(set(all_ids)) == len(all_ids), "duplicate ids"
    # The parent's lease is untouched by its children.
    status = gen.status()
    assert status.healthy and status.lease_state == "held", status
    assert gen.next_id() > parent_ids[-1]
    gen.close()


_APP = textwrap.dedent(
    """
    import os, time
    from snowfleet import Generator

    # Made once, in the gunicorn master (--preload), before the workers fork.
    GEN = Generator(node_source="local:" + os.environ["SNOWFLEET_TEST_REGISTRY"])
    with open(os.environ["SNOWFLEET_TEST_MASTER_NODE"], "w") as f:
        f.write(str(GEN.node_id))

    def app(environ, start_response):
        time.sleep(0.002)  # long enough that concurrent requests spread over the workers
        try:
            ident = GEN.next_id()  # the worker's first call claims its slot; then node_id is it
            body = f"{GEN.node_id} {ident} {os.getpid()}".encode()
            status = "200 OK"
        except Exception as e:  # the test reports what the worker said
            body, status = f"{type(e).__name__}: {e}".encode(), "500 Internal Server Error"
        start_response(status, [("Content-Type", "text/plain")])
        return [body]
    """
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gunicorn_preload_workers_mint_distinct_ids(tmp_path: Path) -> None:
    pytest.importorskip("gunicorn")
    (tmp_path / "prefork_app.py").write_text(_APP)
    registry, master_node_file = tmp_path / "registry", tmp_path / "master-node"
    port = _free_port()
    env = dict(os.environ, SNOWFLEET_TEST_REGISTRY=str(registry),
               SNOWFLEET_TEST_MASTER_NODE=str(master_node_file), PYTHONPATH=str(tmp_path))
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--preload", "-w", "3", "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", "prefork_app:app"],
        env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url, timeout=5).read()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.1)

        def get(_: int) -> str:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.read().decode()

        with concurrent.futures.ThreadPoolExecutor(12) as pool:
            replies = list(pool.map(get, range(600)))
    finally:
        server.terminate()
        server.wait(timeout=30)
    master_node = int(master_node_file.read_text())
    ids, node_by_worker = [], {}
    for reply in replies:
        node, ident, pid = (int(x) for x in reply.split())
        assert node_by_worker.setdefault(pid, node) == node
        assert decode(ident).node_id == node
        ids.append(ident)
    print(f"gunicorn --preload -w 3: {len(replies)} requests, workers -> nodes {node_by_worker}, "
          f"master node {master_node}")
    assert len(node_by_worker) >= 2, "requests did not spread over the workers"
    assert master_node not in node_by_worker.values()
    assert len(set(node_by_worker.values())) == len(node_by_worker)
    assert len(set(ids)) == len(ids), "duplicate ids"
