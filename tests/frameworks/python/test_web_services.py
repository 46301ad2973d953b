"""docs/web-services.md, run: the FastAPI service under gunicorn and under uvicorn's workers
(one leased node id per worker, ids as strings, slots released at shutdown), its 503 answers
to a clock rewind, and the Kubernetes manifests' node sources."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest
import snowfleet
from snowfleet.testing import ScriptedClock

from conftest import js_client_reads

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from snippets import extract  # noqa: E402

DOC = Path(__file__).resolve().parents[3] / "docs" / "web-services.md"


@pytest.fixture(scope="module")
def snippets(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    return extract(DOC, tmp_path_factory.mktemp("snippets"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(method: str, url: str) -> Tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def claimed_slots(registry: Path) -> List[int]:
    """The slots ever claimed in a registry (a slot file each; slots are drawn at random)."""
    return sorted(int(p.name[5:]) for p in registry.glob("slot-[0-9][0-9][0-9][0-9]"))


def held_slots(registry: Path) -> List[int]:
    """The claimed slots some process holds now: a generator pinned to each is refused."""
    held = []
    for n in claimed_slots(registry):
        try:
            snowfleet.Generator(node_source=f"local:{registry}?node={n}").close()
        except snowfleet.NodeIdUnavailable:
            held.append(n)
    return held


@pytest.fixture(params=["serve-gunicorn.sh", "serve-uvicorn.sh"])
def service(request: pytest.FixtureRequest, snippets: Dict[str, Path],
            tmp_path: Path) -> Iterator[Tuple[str, Path, "subprocess.Popen[bytes]"]]:
    port, registry = free_port(), tmp_path / "registry"
    env = dict(os.environ, PORT=str(port), SNOWFLEET_NODE_SOURCE=f"local:{registry}",
               PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    proc = subprocess.Popen(["sh", str(snippets[request.param])], cwd=snippets[request.param].parent,
                            env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if http("GET", url + "/health/ready")[0] == 200 and len(claimed_slots(registry)) == 2:
                break
        except OSError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "the service did not start"
        time.sleep(0.2)
    yield url, registry, proc
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_each_worker_leases_its_node_id_and_releases_it_at_shutdown(
        service: Tuple[str, Path, "subprocess.Popen[bytes]"]) -> None:
    url, registry, proc = service
    workers = held_slots(registry)
    assert len(workers) == 2, workers  # two workers, two slots of their own
    bodies = [http("POST", url + "/orders") for _ in range(40)]
    assert all(status == 200 for status, _ in bodies), bodies[:3]
    orders = [json.loads(body) for _, body in bodies]
    ids = [int(o["id"]) for o in orders]
    assert len(set(ids)) == len(ids)
    assert {o["node_id"] for o in orders} <= set(workers)
    assert all(snowfleet.decode(o["id"]).node_id == o["node_id"] for o in orders)
    js_client_reads(bodies[0][1], {"id": ids[0]})
    assert http("GET", url + "/health/live")[0] == 200

    (server,) = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    os.kill(int(server), signal.SIGTERM)  # what the platform sends the server at scale-down
    assert proc.wait(timeout=30) == 0
    assert claimed_slots(registry) == workers
    assert held_slots(registry) == [], "a worker kept its slot after shutdown"


def test_a_rewind_is_a_503_with_retry_after(snippets: Dict[str, Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    monkeypatch.setenv("SNOWFLEET_NODE_SOURCE", f"local:{tmp_path}")
    monkeypatch.syspath_prepend(str(snippets["fastapi_service.py"].parent))
    import fastapi_service

    with TestClient(fastapi_service.app) as client:
        fastapi_service.app.state.ids.close()
        clock = ScriptedClock([1737747359000, 1737747356600])  # then 2.4 s back, frozen
        fastapi_service.app.state.ids = snowfleet.Generator(node_id=3, clock=clock, max_wait_ms=0)
        assert client.post("/orders").status_code == 200
        refused = client.post("/orders")
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "3"
        assert refused.json() == {"error": "CLOCK_MOVED_BACKWARDS"}
        ready = client.get("/health/ready")
        assert ready.status_code == 503 and not ready.json()["healthy"], ready.text
        assert client.get("/health/live").status_code == 200  # not a reason to restart


def node_source(manifest: Path) -> str:
    found = re.search(r"name: SNOWFLEET_NODE_SOURCE\n\s+value: \"([^\"]+)\"", manifest.read_text())
    assert found, manifest.read_text()
    return found.group(1)


def test_the_statefulset_takes_the_pod_ordinal(snippets: Dict[str, Path]) -> None:
    spec = node_source(snippets["statefulset.yaml"])
    code = f"import snowfleet; print(snowfleet.Generator(node_source={spec!r}).node_id)"
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, HOSTNAME="orders-3"),
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"


def test_the_deployment_spells_an_etcd_lease(snippets: Dict[str, Path]) -> None:
    spec = node_source(snippets["deployment.yaml"])
    assert spec.startswith("etcd://")
    unreachable = re.sub(r"^etcd://[^/]+", "etcd://127.0.0.1:1", spec)
    with pytest.raises(snowfleet.NodeIdUnavailable):
        snowfleet.Generator(node_source=unreachable)
