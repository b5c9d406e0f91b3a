"""Two `memory serve` processes on one PostgreSQL store: an add acknowledged by one is found
by a search on the other (read-your-writes across processes), and clients adding to one
user through both at once lose and duplicate nothing."""
from __future__ import annotations

import json
import threading
import uuid

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")
pytest.importorskip("uvicorn", reason="the server extra is not installed (pip install -e '.[server]')")

from click.testing import CliRunner  # noqa: E402

from memory.cli import main  # noqa: E402
from memory.store import PostgresStore, user_scope  # noqa: E402

from pg import fresh_schema_url  # noqa: E402
from test_server import TOKEN_ALICE, Served, add_body, rid, word  # noqa: E402


class ServedOn(Served):
    """``memory serve`` on a store named by URL (its log beside ``folder``)."""

    def __init__(self, url: str, folder, *args: str) -> None:
        super().__init__(folder, *args)
        self.store_url = url

    def command(self) -> list[str]:
        command = super().command()
        command[command.index("--store") + 1] = self.store_url
        return command


@pytest.fixture
def two_servers(tmp_path):
    url = fresh_schema_url()
    assert CliRunner().invoke(main, ["--store", url, "init"], catch_exceptions=False).exit_code == 0
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({TOKEN_ALICE: ["alice"]}))
    servers = [ServedOn(url, tmp_path / name, "--tokens", str(tokens)).start() for name in ("a", "b")]
    yield url, servers
    for served in servers:
        served.stop()


def test_a_search_on_one_server_finds_an_add_acknowledged_by_the_other(two_servers):
    _, (a, b) = two_servers
    with a.client() as on_a, b.client() as on_b:
        first = word()
        assert on_a.post("/v1/memories/add", json=add_body(rid(), messages=[
            {"role": "user", "content": f"I keep bees called {first}", "timestamp": "2023-05-08T09:30:00Z"}])
        ).status_code == 200
        # b reads the scope once, then must catch up with a's next add from the sequence
        assert on_b.post("/v1/memories/search", json={"query": first, "user_id": "alice", "top_k": 1}).json()["data"]
        second = word()
        assert on_a.post("/v1/memories/add", json=add_body(rid(), messages=[
            {"role": "user", "content": f"My neighbour grows {second}", "timestamp": "2023-05-09T09:30:00Z"}])
        ).status_code == 200
        found = on_b.post("/v1/memories/search", json={"query": second, "user_id": "alice", "top_k": 1}).json()["data"]
        assert found and second in found[0]["content"]


def test_clients_adding_through_two_servers_at_once_lose_and_duplicate_nothing(two_servers):
    url, servers = two_servers
    requests = [(servers[n % 2], rid()) for n in range(24)]
    statuses: list[int] = []

    def send(served, request_id):
        with served.client() as client:
            statuses.append(client.post("/v1/memories/add", json=add_body(request_id, session=uuid.uuid4().hex))
                            .status_code)
    threads = [threading.Thread(target=send, args=request) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 24
    revisions = PostgresStore.open(url).scope_revisions(user_scope("alice"))
    # two messages per request, each once
    assert len(revisions) == 48 and len({r["id"] for r in revisions}) == 48
    assert {r["transition"]["transaction_id"].split(":")[1] for r in revisions} == {r for _, r in requests}
