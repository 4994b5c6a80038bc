#!/usr/bin/python3
"""spec/serve_socket_test.py: boardscript serve against hostile clients, over raw sockets.

Starts the real binary (`boardscript serve --port 0`, loopback only) and
sends it, byte for byte, requests that break HTTP's framing (every form of
Content-Length, short bodies and aborted uploads, Expect without a body,
half-closed sockets, Transfer-Encoding, oversized and too many header
fields, garbage request lines, non-ASCII targets, pipelining, HTTP/1.0, a
client that never finishes its head) and requests a web page of another
site could send (a text/plain or form POST, another Origin or site, a Host
that is not the server's: DNS rebinding). After each probe it checks the
answer's status (or that the connection was dropped), that no answer holds
a traceback or a heap address, that the server still answers GET /api/rules
within a second, and that it is not spinning: its processor time
(/proc/PID/stat) grows by less than 0.15 s over 0.5 s of idle. The server
is always killed at the end.

Exit status 0: passed; 1: failed (each failure is printed).
"""
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("BOARDSCRIPT_BIN") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                                                       "boardscript")
TICK = os.sysconf("SC_CLK_TCK")
LEAKS = re.compile(rb"stack traceback|0x[0-9a-fA-F]{6,}|boardscript/[\w/]+\.lua:\d+")
DROP = "dropped"  # the connection closed without an answer
failures = []


def fail(what):
    failures.append(what)
    print(f"FAIL: {what}", flush=True)


class Server:
    def __init__(self, *args):
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([BIN, "serve", "--port", "0", "--seed", "1", *args], stdout=subprocess.PIPE,
                                     stderr=self.log, start_new_session=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        line = self.proc.stdout.readline().decode() if ready else ""
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.stop()
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(m.group(1))
        self.host = f"127.0.0.1:{self.port}"

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


def parse_answers(buf, count, head_only=(), first=0):
    """The complete answers at the start of buf (at most count): (status, fields, body) each, and the rest.
    The answers numbered in head_only (from first) are to HEAD: no body."""
    answers = []
    while len(answers) < count:
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            break
        lines = buf[:end].decode("latin-1").split("\r\n")
        m = re.match(r"HTTP/1\.[01] (\d{3}) ", lines[0] + " ")
        if not m:
            raise ValueError(f"not an HTTP answer: {lines[0]!r}")
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        status = int(m.group(1))
        length = 0 if status == 100 or first + len(answers) in head_only else int(fields.get("content-length", "0"))
        if len(buf) < end + 4 + length:
            break
        answers.append((status, fields, buf[end + 4:end + 4 + length]))
        buf = buf[end + 4 + length:]
    return answers, buf


def exchange(port, data, count=1, shut=False, seconds=3.0, then=None, head_only=()):
    """Sends data; reads up to count answers. Returns (answers, closed): closed when the server closed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=seconds)
    buf, answers, closed = b"", [], False
    try:
        if data:
            s.sendall(data)
        if shut:
            s.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + seconds
        while True:
            got, buf = parse_answers(buf, count - len(answers), head_only, len(answers))
            answers += got
            if then and answers and answers[-1][0] == 100:
                s.sendall(then)
                then = None
            if len(answers) >= count:
                # closed right after the last answer?
                s.settimeout(0.2)
                try:
                    closed = s.recv(1) == b""
                except (socket.timeout, BlockingIOError):
                    closed = False
                except ConnectionResetError:
                    closed = True
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            s.settimeout(left)
            try:
                data = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not data:
                closed = True
                break
            buf += data
    finally:
        s.close()
    return answers, closed


def request(method, path, host, body=None, fields=None, version="1.1"):
    """The bytes of a request."""
    lines = [f"{method} {path} HTTP/{version}"]
    if host is not None:
        lines.append(f"Host: {host}")
    for name, value in (fields or {}).items():
        lines.append(f"{name}: {value}")
    data = body.encode() if isinstance(body, str) else body
    if data is not None:
        lines.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (data or b"")


JSON = {"Content-Type": "application/json"}


def healthy(server, what):
    """The server is running, answers GET /api/rules within a second, and is not spinning."""
    if server.proc.poll() is not None:
        fail(f"{what}: the server exited ({server.proc.returncode})")
        return False
    start = time.monotonic()
    try:
        answers, _ = exchange(server.port, request("GET", "/api/rules", server.host), seconds=1.0)
    except OSError as e:
        answers = []
        fail(f"{what}: GET /api/rules afterwards: {e}")
    if not answers or answers[0][0] != 200 or time.monotonic() - start > 1.0:
        fail(f"{what}: GET /api/rules afterwards was not answered 200 within a second ({answers[:1]})")
        return False
    before = server.cpu_seconds()
    time.sleep(0.5)
    used = server.cpu_seconds() - before
    if used > 0.15:
        fail(f"{what}: the server spins: {used:.2f} s of processor time over 0.5 s idle")
        return False
    return True


def check(server, what, data, expect, count=1, shut=False, closed=None, then=None, seconds=3.0, head_only=(),
          health=True):
    """One probe: expect is a status, a set of statuses, DROP, or a list (one per answer)."""
    try:
        answers, was_closed = exchange(server.port, data, count=count, shut=shut, then=then, seconds=seconds,
                                       head_only=head_only)
    except (OSError, ValueError) as e:
        fail(f"{what}: {e}")
        return healthy(server, what)
    for _, _, body in answers:
        if LEAKS.search(body):
            fail(f"{what}: the answer leaks an internal detail: {body[:200]!r}")
    statuses = [a[0] for a in answers]
    if isinstance(expect, list):
        ok = statuses == expect
    elif expect == DROP:
        ok = not answers and was_closed
    else:
        allowed = expect if isinstance(expect, set) else {expect}
        ok = (statuses[:1] and statuses[0] in allowed) or (DROP in allowed and not answers and was_closed)
    if not ok:
        fail(f"{what}: expected {expect}, got {statuses or 'no answer'} (closed: {was_closed})")
    elif closed is not None and was_closed != closed:
        fail(f"{what}: the connection was {'' if was_closed else 'not '}closed after the answer")
    else:
        print(f"ok: {what}: {statuses or DROP}", flush=True)
    if health:
        healthy(server, what)
    return answers


def framing_probes(server):
    h, port = server.host, server.port
    post = f"POST /api/games HTTP/1.1\r\nHost: {h}\r\nContent-Type: application/json\r\n"
    # a client that never finishes its head, held open while every other probe runs
    slow = socket.create_connection(("127.0.0.1", port), timeout=5)
    slow.sendall(f"GET /api/rules HTTP/1.1\r\nHost: {h}\r\nX-Slow: ".encode())
    slow_since = time.monotonic()

    for value in ("-5", "-1", "9223372036854775808", "1.5", "", "abc", "+5", "0x10", "5 5", "1e3"):
        check(server, f"Content-Length: {value!r}", (post + f"Content-Length: {value}\r\n\r\n").encode() + b"{}",
              {400, 413}, closed=True)
    check(server, "Content-Length over 64 KiB", (post + "Content-Length: 70000\r\n\r\n").encode(), 413, closed=True)
    check(server, "two different Content-Length fields",
          (post + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}").encode(), 400, closed=True)
    check(server, "Content-Length: 2, 3", (post + "Content-Length: 2, 3\r\n\r\n{}").encode(), 400, closed=True)
    check(server, "the same Content-Length twice (taken)",
          (post + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}").encode(), 201)
    check(server, "a body shorter than its Content-Length, then the client half-closes",
          (post + "Content-Length: 100\r\n\r\n{").encode(), {400, DROP}, shut=True)
    # the issue's reproducer: the client gives up mid-upload and closes
    s = socket.create_connection(("127.0.0.1", port), timeout=3)
    s.sendall((post + "Content-Length: 100\r\n\r\n{\"rules\":").encode())
    s.close()
    time.sleep(0.2)
    healthy(server, "a body shorter than its Content-Length, then the client closes")
    for value in ("1.5", "", "abc"):
        s = socket.create_connection(("127.0.0.1", port), timeout=3)
        s.sendall((post + f"Content-Length: {value}\r\n\r\n{{").encode())
        s.close()
        time.sleep(0.1)
        healthy(server, f"Content-Length: {value!r} and a close")
    check(server, "Expect: 100-continue and no body, then the client closes",
          (post + "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n").encode(), 100)
    check(server, "Expect: 100-continue and no body, then the client half-closes",
          (post + "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n").encode(), {100, 400, DROP}, shut=True)
    check(server, "Expect: 100-continue, then the body",
          (post + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n").encode(), [100, 201], count=2, then=b"{}")
    check(server, "Expect: something else", (post + "Expect: a-miracle\r\nContent-Length: 2\r\n\r\n{}").encode(),
          417, closed=True)
    check(server, "Transfer-Encoding: chunked (refused: send a Content-Length)",
          (post + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n").encode(), 411, closed=True)
    check(server, "Transfer-Encoding with Content-Length",
          (post + "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}").encode(), 400, closed=True)
    check(server, "a whole request, then the client half-closes",
          request("GET", "/api/rules", h), 200, shut=True, closed=True)
    check(server, "a whole POST, then the client half-closes",
          request("POST", "/api/games", h, "{}", JSON), 201, shut=True, closed=True)
    check(server, "a header line of 20,000 bytes", request("GET", "/api/rules", h, fields={"X-Long": "a" * 20000}),
          431, closed=True)
    check(server, "200 header fields", request("GET", "/api/rules", h, fields={f"X-F{i}": "1" for i in range(200)}),
          431, closed=True)
    check(server, "a request target of 10,000 bytes", request("GET", "/" + "a" * 10000, h), 414, closed=True)
    check(server, "a head that never ends (64 KiB of one field, no end)",
          f"GET / HTTP/1.1\r\nHost: {h}\r\nX: ".encode() + b"a" * 65536, {431}, closed=True)
    check(server, "three requests pipelined in one write",
          request("GET", "/api/rules", h) + request("POST", "/api/games", h, "{}", JSON)
          + request("HEAD", "/", h), [200, 201, 200], count=3, closed=False, head_only=(2,))
    check(server, "pipelined, the last asking to close",
          request("GET", "/api/rules", h) + request("GET", "/api/rules", h, fields={"Connection": "close"}),
          [200, 200], count=2, closed=True)
    check(server, "HTTP/1.0 without Host", b"GET /api/rules HTTP/1.0\r\n\r\n", 200, closed=True)
    check(server, "HTTP/1.1 without Host", b"GET /api/rules HTTP/1.1\r\n\r\n", 400, closed=True)
    check(server, "lines ended by LF alone (taken)", f"GET /api/rules HTTP/1.1\nHost: {h}\n\n".encode(), 200)
    check(server, "empty lines before the request line (taken)", b"\r\n\r\n" + request("GET", "/api/rules", h), 200)
    check(server, "a megabyte of empty lines, then a request", b"\r\n" * 500000 + request("GET", "/api/rules", h), 200,
          seconds=10)
    for what, data, status in [
        ("a request line of one word", b"NONSENSE\r\n\r\n", 400),
        ("HTTP/0.9", b"GET /\r\n\r\n", 400),
        ("HTTP/2.0 in text", request("GET", "/", h, version="2.0"), 505),
        ("the HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", {400, 505}),
        ("HTTP/1.1 with a word more", f"GET / HTTP/1.1 x\r\nHost: {h}\r\n\r\n".encode(), 400),
        ("a TLS ClientHello", bytes.fromhex("16030100a5010000a10303") + os.urandom(160), 400),
        ("binary garbage", bytes(range(256)) * 4 + b"\r\n\r\n", {400, 414}),
        ("a target in UTF-8", f"GET /\u00e9t\u00e9 HTTP/1.1\r\nHost: {h}\r\n\r\n".encode(), 400),
        ("a target with a NUL", f"GET /api/rules\0 HTTP/1.1\r\nHost: {h}\r\n\r\n".encode(), 400),
        ("a target that is not a path", f"GET api/rules HTTP/1.1\r\nHost: {h}\r\n\r\n".encode(), 400),
        ("a NUL in a field's value", f"GET /api/rules HTTP/1.1\r\nHost: {h}\r\nX: a\0b\r\n\r\n".encode(), 400),
        ("a folded field", f"GET /api/rules HTTP/1.1\r\nHost: {h}\r\nX: a\r\n b\r\n\r\n".encode(), 400),
        ("a space before a field's colon", f"GET /api/rules HTTP/1.1\r\nHost : {h}\r\n\r\n".encode(), 400),
        ("a carriage return alone", f"GET /api/rules HTTP/1.1\r\nHost: {h}\rX: y\r\n\r\n".encode(), 400),
        ("two Host fields", f"GET /api/rules HTTP/1.1\r\nHost: {h}\r\nHost: {h}\r\n\r\n".encode(), 400),
        ("an unknown method", request("BREW", "/api/rules", h, "", JSON), 405),
    ]:
        check(server, what, data, status, closed=None if status == 405 else True)
    # a client that resets the connection before reading its answer
    for _ in range(3):
        s = socket.create_connection(("127.0.0.1", port), timeout=3)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
        s.sendall(request("POST", "/api/games", h, '{"rules":"dots","size":"9x9"}', JSON))
        s.close()
    time.sleep(0.3)
    healthy(server, "clients that reset before reading their answer")

    # the slow client: others were served meanwhile; it is answered 408 or dropped by the head deadline
    slow.settimeout(max(0.5, 12 - (time.monotonic() - slow_since)))
    try:
        got = slow.recv(4096)
    except socket.timeout:
        got = None
    except ConnectionResetError:
        got = b""
    slow.close()
    if got is None:
        fail("a client that never finishes its head was still connected after 12 s")
    elif got and not got.startswith(b"HTTP/1.1 408 "):
        fail(f"a client that never finishes its head: {got[:60]!r}")
    else:
        print(f"ok: a client that never finishes its head: {'408' if got else DROP} after "
              f"{time.monotonic() - slow_since:.0f} s, others served meanwhile", flush=True)
    healthy(server, "a client that never finishes its head")


def origin_probes(server):
    h, port = server.host, server.port
    own = f"http://{h}"
    answers = check(server, "a game made from the page's own origin", request(
        "POST", "/api/games", h, '{"rules":"reversi"}', {**JSON, "Origin": own, "Sec-Fetch-Site": "same-origin"}),
        201)
    game = json.loads(answers[0][2])["id"] if answers else "1"
    attacker = "http://attacker.example"
    for what, data, status in [
        ("a cross-origin text/plain POST (no preflight)", request(
            "POST", f"/api/games/{game}/move", h, '{"move":"f5"}',
            {"Content-Type": "text/plain", "Origin": attacker, "Sec-Fetch-Site": "cross-site"}), 403),
        ("a text/plain POST without Origin", request(
            "POST", f"/api/games/{game}/move", h, '{"move":"f5"}', {"Content-Type": "text/plain"}), 415),
        ("a form POST", request("POST", "/api/games", h, "rules=reversi",
                                {"Content-Type": "application/x-www-form-urlencoded"}), 415),
        ("a POST without a body or Content-Type (undo)", request("POST", f"/api/games/{game}/undo", h, ""), 415),
        ("a POST without a body or Content-Type (restart)", request("POST", f"/api/games/{game}/restart", h), 415),
        ("a JSON POST from another origin", request(
            "POST", f"/api/games/{game}/move", h, '{"move":"f5"}', {**JSON, "Origin": attacker}), 403),
        ("a JSON POST from Origin null", request(
            "POST", f"/api/games/{game}/move", h, '{"move":"f5"}', {**JSON, "Origin": "null"}), 403),
        ("a JSON POST from http://localhost to Host 127.0.0.1", request(
            "POST", "/api/games", h, "{}", {**JSON, "Origin": f"http://localhost:{port}"}), 403),
        ("a JSON POST from another site, without Origin", request(
            "POST", "/api/games", h, "{}", {**JSON, "Sec-Fetch-Site": "cross-site"}), 403),
        ("a GET of a hint from another site", request(
            "GET", f"/api/games/{game}/hint", h, fields={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}),
         403),
        ("Host: attacker.example (DNS rebinding)", request("GET", "/api/rules", "attacker.example"), 421),
        ("Host: attacker.example with the port", request("GET", f"/api/games/{game}", f"attacker.example:{port}"),
         421),
        ("Host: another port", request("GET", "/api/rules", f"127.0.0.1:{port + 1 if port < 65535 else 1}"), 421),
        ("Host without the port", request("GET", "/api/rules", "127.0.0.1"), 421),
        ("Host: 10.0.0.1 (not listened on)", request("GET", "/api/rules", f"10.0.0.1:{port}"), 421),
        ("an absolute target naming another host", request("GET", "http://attacker.example/api/rules", h), 421),
    ]:
        check(server, what, data, status, closed=True)
    answers = check(server, "the game after every refusal", request("GET", f"/api/games/{game}", h), 200)
    if answers and json.loads(answers[0][2])["log"] != []:
        fail("a refused request changed the game")
    for what, data, status in [
        ("Host: localhost", request("GET", "/api/rules", f"localhost:{port}"), 200),
        ("Host: LOCALHOST", request("GET", "/api/rules", f"LOCALHOST:{port}"), 200),
        ("Host: [::1]", request("GET", "/api/rules", f"[::1]:{port}"), 200),
        ("an absolute target naming this server", request("GET", f"http://{h}/api/rules", h), 200),
        ("a link from another site opens the page", request(
            "GET", "/?rules=reversi", h, fields={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}), 200),
        ("a JSON POST from http://localhost to Host localhost", request(
            "POST", f"/api/games/{game}/move", f"localhost:{port}", '{"move":"f5"}',
            {**JSON, "Origin": f"http://localhost:{port}"}), 200),
        ("a JSON POST with a charset, from the page's origin", request(
            "POST", f"/api/games/{game}/undo", h, "", {"Content-Type": "Application/JSON; charset=utf-8",
                                                        "Origin": own, "Sec-Fetch-Site": "same-origin"}), 200),
    ]:
        check(server, what, data, status)
    answers = check(server, "no game was made by a refused request", request("POST", "/api/games", h, "{}", JSON), 201)
    if answers and str(json.loads(answers[0][2])["id"]) != str(int(game) + 1):
        fail(f"a refused request made a game: the next id is {json.loads(answers[0][2])['id']}, not {int(game) + 1}")
    # what a handler or the API gets wrong reaches no answer
    check(server, "a table as the rule set's name", request("POST", "/api/games", h, '{"rules":{}}', JSON), {400, 500})
    check(server, "a study of game 0", request("POST", "/api/study", h, json.dumps(
        {"text": "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TY[8]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]B[F5];)",
         "game": 0}), JSON), {201, 400, 500})


def api_probes(server):
    """The routes issue 31 added, over the socket with what a broken or hostile page sends: a game from a list
    of moves, ?since= a game's version, resign, the analysis of every move."""
    h = server.host
    js = {"Content-Type": "application/json"}

    def post(path, body, expect, what):
        return check(server, what, request("POST", path, h, body, js), expect)

    for body, what in ((b'{"rules":"reversi","moves":"f5"}', "moves: a text, not a list"),
                       (b'{"rules":"reversi","moves":[{},null,5]}', "moves: objects and null"),
                       (b'{"rules":"reversi","moves":{"1":"f5"}}', "moves: an object"),
                       (b'{"rules":"reversi","moves":["f5","a1"]}', "moves: an illegal second move"),
                       (b'{"rules":"reversi","moves":["' + b"f5" * 40000 + b'"]}', "moves: a move of 80 KB"),
                       (b'{"rules":"reversi","moves":[' + b",".join([b'"pass"'] * 3000) + b"]}",
                        "moves: 3000 passes")):
        post("/api/games", body, {400, 413}, what)
    answers = post("/api/games", b'{"rules":"reversi","moves":["f5","d6"],"players":{"black":"human",'
                                 b'"white":"human"}}', 201, "a game from two moves")
    if not answers:
        return
    game = json.loads(answers[0][2])
    gid, version = game["id"], game["version"]
    for query, expect in ((f"since={version}", 200), ("since=", 200), ("since=%00%ff", 200),
                          ("since=" + "9" * 5000, {200, 400, 414, 431}), ("since=1&since=2", 200)):
        check(server, f"GET ?{query[:30]}", request("GET", f"/api/games/{gid}?{query}", h), expect)
    unchanged = check(server, "?since= the game's version: unchanged",
                      request("GET", f"/api/games/{gid}?since={version}", h), 200)
    if unchanged and b'"unchanged":true' not in unchanged[0][2]:
        fail("?since= the game's version did not say unchanged")
    for body, what in ((b'{"side":{"a":1}}', "resign: side an object"), (b'{"side":"purple"}', "resign: no such side"),
                       (b'[1,2]', "resign: an array")):
        post(f"/api/games/{gid}/resign", body, 400, what)
    post(f"/api/games/{gid}/resign", b'{"side":"white"}', 200, "resign for a human side")
    post(f"/api/games/{gid}/resign", b"{}", 400, "resign twice")
    post(f"/api/games/{gid}/undo", b"{}", 200, "undo takes the resignation back")
    check(server, "GET the analysis", request("GET", f"/api/games/{gid}/analysis", h), 200, seconds=15)
    post(f"/api/games/{gid}/analysis", b"{}", 405, "POST the analysis")
    check(server, "GET the analysis of no game", request("GET", "/api/games/99999/analysis", h), 404)


def connection_cap(server, cap=256):
    """cap idle connections are held; one more is answered 503; once they close, all is as before."""
    held = []
    try:
        for _ in range(cap):
            held.append(socket.create_connection(("127.0.0.1", server.port), timeout=3))
        time.sleep(0.5)
        check(server, f"one connection more than {cap} open", request("GET", "/api/rules", server.host), 503,
              closed=True, health=False)
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)
    healthy(server, f"{cap} connections closed")


def main():
    # ctest's timeout ends the test with SIGTERM: the server is killed all the same (finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("serve_socket: stopped (SIGTERM)"))
    server = Server()
    try:
        framing_probes(server)
        origin_probes(server)
        api_probes(server)
        connection_cap(server)
        if server.proc.poll() is not None:
            fail("the server is not running at the end")
    finally:
        log = server.stop()
    if failures:
        print(f"{len(failures)} failed; the server's log:\n{log[-3000:]}")
        return 1
    print("serve_socket: every probe answered as expected; the server kept serving and never spun")
    return 0


if __name__ == "__main__":
    sys.exit(main())
