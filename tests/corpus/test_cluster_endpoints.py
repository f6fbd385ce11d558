"""``--dask ADDRESS`` where no scheduler answers as one: each a real process on
127.0.0.1 (a silent listener, one that sends garbage or claims a frame of
2^62 bytes, an HTTP server), addresses of other schemes, TLS without
certificates, and URLs whose scheme is refused. Each is exit 2 with one line
naming the address, before any work; none needs a cluster.

The fuzz family of such endpoints is ``test_fuzz.py``'s
``test_a_hostile_endpoint_is_one_line_and_exit_2``.
"""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import endpoint
from test_cli_stats import run as cli

from qwirkle_tools.corpus import cluster

pytest.importorskip("distributed")

SAMPLE = Path(__file__).parents[2] / "sample_games" / "complete-2p.json"


@pytest.fixture
def short(monkeypatch: pytest.MonkeyPatch) -> float:
    """A handshake timeout of 1.5 s instead of 10 (what a silent endpoint costs)."""
    monkeypatch.setattr(cluster, "TIMEOUT", 1.5, raising=False)
    return 1.5


def one_line_exit_2(address: str, *args: str) -> str:
    code, out, err = cli("validate", str(SAMPLE), "--dask", address, *args)
    assert (code, out) == (2, ""), err
    assert len(err.splitlines()) == 1 and err.startswith("qwirkle: "), err
    return err.rstrip("\n").removeprefix("qwirkle: ")


@pytest.mark.serial
def test_a_port_that_accepts_and_never_answers_is_a_handshake_timeout(short: float) -> None:
    with endpoint({"first": "", "wait": True, "drip": 0, "then": "hang"}) as address:
        started = time.monotonic()
        message = one_line_exit_2(address)
        waited = time.monotonic() - started
    assert message == f"the Dask scheduler at {address} did not answer within 1.5 s (a silent port, or not a Dask scheduler)"
    assert waited < 30  # a guard against "for ever", not a measurement


def test_a_byte_every_few_tenths_of_a_second_is_the_same_timeout(short: float) -> None:
    # the timeout covers the whole handshake, not each read
    with endpoint({"first": struct.pack("Q", 30).hex(), "wait": False, "drip": 0.3, "then": "hang"}) as address:
        assert "did not answer within 1.5 s" in one_line_exit_2(address)


@pytest.mark.parametrize("first, said", [
    ((b"\xde\xad\xbe\xef" * 100).hex(), r"it answered b'\xde\xad\xbe\xef"),
    (struct.pack("Q", 2**62).hex(), r"it answered b'\x00\x00\x00\x00\x00\x00\x00@'"),  # never allocated
    ((struct.pack("Q", 40) + b"x" * 40).hex(), r"it answered b'(\x00\x00\x00\x00\x00\x00\x00xxxx"),  # framed, not a handshake
])
def test_an_endpoint_that_sends_garbage_is_not_a_scheduler(short: float, first: str, said: str) -> None:
    with endpoint({"first": first, "wait": False, "drip": 0, "then": "hang"}) as address:
        message = one_line_exit_2(address)
    assert message.startswith(f"{address} is not a Dask scheduler: {said}"), message


def test_an_endpoint_that_closes_at_once(short: float) -> None:
    with endpoint({"first": "", "wait": False, "drip": 0, "then": "close"}) as address:
        message = one_line_exit_2(address)
    assert address in message and ("closed the connection" in message or "reset" in message), message


@pytest.fixture
def http_server() -> Iterator[str]:
    """``python -m http.server`` on a free port of 127.0.0.1 (as a dashboard's port would be)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        process.kill()
        process.wait()


def test_an_http_server_is_not_a_scheduler(short: float, http_server: str) -> None:
    message = one_line_exit_2(http_server)
    # (our bytes read as an HTTP/0.9 request: the answer is the error page, with no status line)
    assert message == f"{http_server} is not a Dask scheduler: it answered <!DOCTYPE HTML>", message


@pytest.mark.parametrize("address, said", [
    ("ucx://127.0.0.1:8786", "ucx://127.0.0.1:8786: not a scheduler address this tool can use"),
    ("inproc://127.0.0.1/1/2", "inproc://127.0.0.1/1/2: not a scheduler address this tool can use"),
    ("ws://127.0.0.1:8786", "ws://127.0.0.1:8786: not a scheduler address this tool can use"),
    ("tcp://127.0.0.1", "tcp://127.0.0.1: not a scheduler address (give local, tcp://HOST:PORT or tls://HOST:PORT)"),
    ("tcp://127.0.0.1:99999", "tcp://127.0.0.1:99999: not a scheduler address"),
    ("tcp://127.0.0.1:8786/path", "tcp://127.0.0.1:8786/path: not a scheduler address"),
    ("127.0.0.1:9", "cannot reach the Dask scheduler at tcp://127.0.0.1:9: Connection refused"),
])
def test_addresses_of_other_schemes_or_without_a_port(address: str, said: str) -> None:
    assert one_line_exit_2(address).startswith(said)


def test_tls_without_certificates_says_how_to_give_them() -> None:
    message = one_line_exit_2("tls://127.0.0.1:9")
    assert message.startswith("tls://127.0.0.1:9: TLS needs certificates: set Dask's distributed.comm.tls.ca-file"), message


def test_tls_with_a_missing_certificate_file(tmp_path: Path) -> None:
    import dask

    missing = str(tmp_path / "none.pem")
    with dask.config.set({"distributed.comm.tls.ca-file": missing, "distributed.comm.tls.client.cert": missing}):
        message = one_line_exit_2("tls://127.0.0.1:9")
    assert message.startswith("cannot use TLS for tls://127.0.0.1:9: "), message


# -- URLs -------------------------------------------------------------------------

@pytest.mark.parametrize("url, scheme", [
    ("reference://", "reference"),
    ("reference://x::file:///etc/passwd", "reference"),
    ("memory://corpus.jsonl", "memory"),
    ("simplecache::file:///tmp/corpus.jsonl", "simplecache"),
    ("zip://a.jsonl::memory://a.zip", "memory"),
    ("file://a.jsonl::file:///tmp/a.zip", "file"),  # only archives may come before ::
    ("ftp://host/corpus.jsonl", "ftp"),
])
def test_urls_of_schemes_a_user_would_not_mean_are_refused_before_any_work(url: str, scheme: str) -> None:
    for command in ("stats", "validate"):
        code, out, err = cli(command, url, "--dask", "tcp://127.0.0.1:9")
        assert (code, out) == (2, "")
        assert err == (f"qwirkle: {url}: {scheme}:// URLs are not accepted (give file://, s3://, gs://, az:// or "
                       "http(s):// URLs, or zip:// or tar:// of one)\n")


@pytest.mark.parametrize("url", ["file:///x.jsonl", "s3://bucket/x.jsonl", "gs://b/x", "az://c/x", "https://h/x.jsonl",
                                 "zip://x.jsonl::file:///x.zip", "tar://x.json::s3://b/x.tar"])
def test_urls_a_user_would_mean_are_accepted(url: str) -> None:
    cluster.check_url(url)


def test_tls_with_certificates_from_dasks_configuration(tmp_path: Path) -> None:
    import shutil

    import dask
    import distributed

    if shutil.which("openssl") is None:
        pytest.skip("needs openssl to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    security = distributed.Security(tls_ca_file=str(cert), tls_client_cert=str(cert), tls_client_key=str(key),
                                    tls_scheduler_cert=str(cert), tls_scheduler_key=str(key), tls_worker_cert=str(cert),
                                    tls_worker_key=str(key), require_encryption=True)
    corpus = str(SAMPLE.parent / "corpus-10.jsonl")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tls://", host="127.0.0.1",
                                  security=security, dashboard_address=None, silence_logs=50) as local:
        address = local.scheduler_address
        assert address.startswith("tls://")
        config = {"distributed.comm.tls.ca-file": str(cert), "distributed.comm.tls.client.cert": str(cert),
                  "distributed.comm.tls.client.key": str(key)}
        with dask.config.set(config):
            assert cli("stats", corpus, "--dask", address)[:2] == cli("stats", corpus)[:2]
        plain = address.replace("tls://", "tcp://")  # a TLS scheduler spoken to in the clear: it hangs up
        code, _, err = cli("stats", corpus, "--dask", plain)
        assert code == 2 and len(err.splitlines()) == 1 and plain in err, err
