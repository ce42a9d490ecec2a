"""git:// and smart HTTP servers on 127.0.0.1 for the heavy benchmark: `git daemon`, and `git http-backend`
behind a small http.server CGI wrapper (this file run as a script). Both are context managers that stop
their server on exit; GIT_TRACE_PACKET and the like in `env` reach git upload-pack. MODKIT_BENCH_SERVER_LOG=FILE
appends the servers' own messages to FILE (git daemon with --verbose: each connection, "Too many children")."""

import os
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_log():
    """The file MODKIT_BENCH_SERVER_LOG names, opened for appending; None without it."""
    path = os.environ.get("MODKIT_BENCH_SERVER_LOG")
    return open(path, "a") if path else None


def wait_listening(port, process, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout}s")


def as_remote_machine():
    """For a server and the proxy in front of it at internet distance: ahead of the measured tools on the CPU (nice
    -10 where the bench may raise a priority, else as is). They stand for other machines and the network between; on
    the client's two cores a busy client delayed the proxy's accepts, which then reached git daemon (listen queue of
    5) together, and the dropped syns cost a second each (`MODKIT_BENCH_NSTAT=1`)."""
    try:
        os.nice(-10)
    except OSError:
        pass


def as_network():
    """For the delaying proxy: the network between the client and the server, which neither machine's load delays.
    Real-time (SCHED_FIFO) where the bench may ask for it, else as a server (`as_remote_machine`). At nice -10 the proxy
    still shared the two cores with git daemon's processes, each started for one connection: with a sync's 100
    connections 2 ms apart it fell behind, then opened several connections to git daemon in one turn of its loop, and
    git daemon's listen queue of 5 dropped their syns (a burst of 100 bare connections 2 ms apart through the proxy:
    18-27 dropped at nice -10, none real-time; none either straight to git daemon, where it took 1 ms to drop any)."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    except (OSError, AttributeError):
        as_remote_machine()


class Server:
    """A server process serving every repository under `root`; `url_base` is where modules live. With `shaping`
    ({"rtt": ms, "bandwidth": Mbit/s}) clients reach it through latency_proxy.py instead."""

    def __init__(self, root, env, shaping=None):
        self.root = root
        self.env = env
        self.shaping = shaping
        self.process = None
        self.proxy = None
        self.url_base = None

    def __enter__(self):
        port = free_port()
        log = server_log()
        self.process = subprocess.Popen(self.command(port), env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=log or subprocess.DEVNULL, start_new_session=True,
                                        preexec_fn=as_remote_machine if self.shaping else None)
        if log:
            log.close()  # the server holds its own copy
        wait_listening(port, self.process)
        if self.shaping:
            # stdin is a pipe only we hold: the proxy stops when it closes, whatever ends this benchmark
            self.proxy = subprocess.Popen(
                [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "latency_proxy.py"),
                 "--target", str(port), "--rtt", str(self.shaping["rtt"]), "--bandwidth", str(self.shaping["bandwidth"])],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                preexec_fn=as_network)
            port = int(self.proxy.stdout.readline())
        self.url_base = self.base(port)
        return self

    def __exit__(self, *exc):
        if self.proxy:
            self.proxy.stdin.close()
            try:
                self.proxy.wait(10)
            except subprocess.TimeoutExpired:
                self.proxy.kill()
                self.proxy.wait()
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()


class GitDaemon(Server):
    def command(self, port):
        exec_path = subprocess.run(["git", "--exec-path"], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        verbose = ["--verbose"] if os.environ.get("MODKIT_BENCH_SERVER_LOG") else []
        return [os.path.join(exec_path, "git-daemon"), "--reuseaddr", "--export-all", "--enable=receive-pack",
                *verbose, f"--base-path={self.root}", "--listen=127.0.0.1", f"--port={port}", self.root]

    def base(self, port):
        return f"git://127.0.0.1:{port}"


class HTTPBackend(Server):
    def command(self, port):
        return [sys.executable, os.path.abspath(__file__), self.root, str(port)]

    def base(self, port):
        return f"http://127.0.0.1:{port}"


class SSHServer(Server):
    """Debian's sshd on 127.0.0.1 with keys made for this run: the client key goes to the fixture's HOME/.ssh (where
    modkit looks) and, with a known_hosts naming the server's key, into GIT_SSH_COMMAND for plain git (OpenSSH reads
    the password database's home, not HOME). MaxStartups is raised to 100: a hosting service's sshd takes a burst of
    handshakes, where Debian's default (10:30:100) drops them at random past 10, and plain git runs up to 16 at once.
    Sessions get an empty HOME (`SetEnv`), so the shell that runs git-upload-pack reads no rc file of this machine's
    user."""

    def __enter__(self):
        sshd = "/usr/sbin/sshd"
        if not os.access(sshd, os.X_OK):
            raise SystemExit("--transport ssh needs sshd (apt-get install openssh-server)")
        self.keys = os.path.join(os.path.dirname(os.path.abspath(self.root)), "ssh")
        os.makedirs(self.keys, exist_ok=True)
        os.makedirs("/run/sshd", exist_ok=True)  # sshd's privilege separation directory
        for name in ("host_key", "client_key"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(self.keys, name)], check=True)
        home_ssh = os.path.join(self.env["HOME"], ".ssh")
        os.makedirs(home_ssh, mode=0o700, exist_ok=True)
        for suffix in ("", ".pub"):
            with open(os.path.join(self.keys, "client_key" + suffix)) as source:
                text = source.read()
            target = os.path.join(home_ssh, "id_ed25519" + suffix)
            with open(target, "w") as handle:
                handle.write(text)
            os.chmod(target, 0o600)
        super().__enter__()
        port = int(self.url_base.split(":")[2].split("/")[0])
        with open(os.path.join(self.keys, "host_key.pub")) as handle:
            host_key = " ".join(handle.read().split()[:2])
        known_hosts = os.path.join(home_ssh, "known_hosts")
        with open(known_hosts, "w") as handle:
            handle.write(f"[127.0.0.1]:{port} {host_key}\n")
        self.env["GIT_SSH_COMMAND"] = (f"ssh -i {os.path.join(home_ssh, 'id_ed25519')} -o UserKnownHostsFile={known_hosts} "
                                       "-o StrictHostKeyChecking=yes -o BatchMode=yes -o IdentitiesOnly=yes")
        return self

    def command(self, port):
        config = os.path.join(self.keys, "sshd_config")
        # Sessions run git-upload-pack through the user's login shell, which reads ~/.bashrc when started by sshd: on a
        # developer's machine that can cost more than git itself (pyenv's init: 55 ms a session). A hosting service
        # runs no such file, so the sessions get an empty HOME of their own.
        server_home = os.path.join(self.keys, "server-home")
        os.makedirs(server_home, exist_ok=True)
        with open(config, "w") as handle:
            handle.write(f"ListenAddress 127.0.0.1\nPort {port}\nHostKey {os.path.join(self.keys, 'host_key')}\n"
                         f"AuthorizedKeysFile {os.path.join(self.keys, 'client_key.pub')}\nStrictModes no\nUsePAM no\n"
                         "PermitRootLogin yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                         f"PidFile none\nMaxStartups 100\nSetEnv HOME={server_home}\n")
        return ["/usr/sbin/sshd", "-D", "-e", "-f", config]

    def base(self, port):
        import getpass
        return f"ssh://{getpass.getuser()}@127.0.0.1:{port}{os.path.abspath(self.root)}"


class FileTransport:
    """file:// needs no server."""

    def __init__(self, root, env, shaping=None):
        self.url_base = f"file://{root}"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


TRANSPORTS = {"file": FileTransport, "git": GitDaemon, "http": HTTPBackend, "ssh": SSHServer}


def describe(shaping):
    """How the network is shaped, for the table's heading."""
    if not shaping:
        return "127.0.0.1, no added delay"
    cap = f"{shaping['bandwidth']:g} Mbit/s" if shaping["bandwidth"] else "no bandwidth cap"
    return (f"through latency_proxy.py: {shaping['rtt']:g} ms round trip, {cap}, "
            f"{shaping['rtt']:g} ms connection set-up")


def serve_http(root, port):
    """`git http-backend` as CGI, streaming the request body to it and its answer back."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            self.serve()

        def do_POST(self):
            self.serve()

        def serve(self):
            path, _, query = self.path.partition("?")
            env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1", PATH_INFO=path,
                       QUERY_STRING=query, REQUEST_METHOD=self.command, REMOTE_ADDR="127.0.0.1",
                       CONTENT_TYPE=self.headers.get("Content-Type", ""), GIT_HTTP_RECEIVE_PACK="1",
                       REMOTE_USER="bench")
            chunked = self.headers.get("Transfer-Encoding", "").lower() == "chunked"
            if not chunked:
                env["CONTENT_LENGTH"] = self.headers.get("Content-Length", "0")
            for header, name in (("Content-Encoding", "HTTP_CONTENT_ENCODING"), ("Git-Protocol", "GIT_PROTOCOL")):
                if self.headers.get(header):
                    env[name] = self.headers[header]
            backend = subprocess.Popen(["git", "http-backend"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            if self.command == "POST":
                if chunked:
                    while True:
                        size = int(self.rfile.readline().strip().split(b";")[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        backend.stdin.write(self.rfile.read(size))
                        self.rfile.readline()
                else:
                    backend.stdin.write(self.rfile.read(int(env["CONTENT_LENGTH"])))
            backend.stdin.close()
            status, headers = 200, []
            while True:
                line = backend.stdout.readline().rstrip(b"\r\n")
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "status":
                    status = int(value.strip().split()[0])
                else:
                    headers.append((name, value.strip()))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            # chunked, so the connection stays open for the client's next request (keep-alive, as real servers)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            while True:
                data = backend.stdout.read1(1 << 16)
                if not data:
                    break
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            backend.wait()

    class Server(ThreadingHTTPServer):
        # Python's default backlog of 5 drops the SYNs of a burst of connections, which then wait a second for the
        # retransmission; web servers listen with hundreds (nginx 511), as the delaying proxy in front does.
        request_queue_size = 1024

    Server(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    serve_http(sys.argv[1], int(sys.argv[2]))
